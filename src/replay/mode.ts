/**
 * The replay mode of a session, worked out once when it opens, as the golden
 * update mode is: every later decision (answer from the recording or call the
 * model, write the recording or not) reads that one value.
 *
 * - `off`: call the model; no recording is read or written (the default);
 * - `record`: call the model, and make the calls the run's recording (replacing the previous one);
 * - `replay`: never call the model: every call is answered from the recording, a call with no match fails;
 * - `auto`: answer what the recording has, call the model for the rest and add them to it;
 * - `prune`: as `auto`, and a run that completes drops the recorded calls it no longer made.
 *
 * `REAGENT_REPLAY` overrides the option, so a whole suite can be recorded
 * (`REAGENT_REPLAY=record npx vitest`) or run offline without touching its
 * code; the project's default (`provide: { reagentFlow }` in the vitest
 * config, project-defaults.ts) comes below the option. Under `CI`, `auto`
 * and `prune` replay only: CI never records, as it never writes goldens; an
 * explicit `record` still records.
 */
import { isCi } from '../golden/update-mode.js'

export type ReplayMode = 'off' | 'record' | 'replay' | 'auto' | 'prune'
export const REPLAY_MODES: readonly ReplayMode[] = ['off', 'record', 'replay', 'auto', 'prune']

export function isReplayMode(value: unknown): value is ReplayMode {
  return (REPLAY_MODES as readonly unknown[]).includes(value)
}

/**
 * The mode a session runs in: `REAGENT_REPLAY` (empty counts as unset;
 * anything else but a mode is a TypeError), else the `replay` option (or
 * the project's default, which the caller passes when there is no option),
 * else `off`; then `auto` and `prune` become `replay` when `CI` is set.
 */
export function resolveReplayMode(option: ReplayMode | undefined, env: Readonly<Record<string, string | undefined>> = process.env): ReplayMode {
  const requested = env.REAGENT_REPLAY
  let mode: ReplayMode = option ?? 'off'
  if (requested !== undefined && requested !== '') {
    if (!isReplayMode(requested)) {
      throw new TypeError(
        `REAGENT_REPLAY=${JSON.stringify(requested)} is not a replay mode. Use one of: off (call the model), record (call it and save the calls), ` +
          `replay (answer every call from the recording), auto (answer what is recorded, record the rest), ` +
          `prune (as auto, and drop the recorded calls no longer made).`,
      )
    }
    mode = requested
  }
  return (mode === 'auto' || mode === 'prune') && isCi(env) ? 'replay' : mode
}
