/**
 * The record and replay defaults of a whole test suite, set once in its
 * vitest config instead of in every test file:
 *
 *   // vitest.config.ts
 *   test: { setupFiles: ['reagent-flow/vitest'], provide: { reagentFlow: { replay: 'auto', replayTools: true } } }
 *
 * vitest hands `provide` to every worker, whatever the pool and isolation;
 * `reagent-flow/vitest` registers a reader of it (vitest's `inject`), which
 * is asked each time a session opens, so a worker that runs the files of
 * several projects reads each file's own project. A session's mode is then,
 * first to last: `REAGENT_REPLAY`, the session option (or the outer
 * session's), this default, `off` (see mode.ts); `replayTools` and `strict`:
 * the session option (or the outer session's), this default, false.
 */
import { REPLAY_MODES, type ReplayMode } from './mode.js'

export interface ProjectDefaults {
  /** The replay mode of every session that sets none. Default: `'off'`. */
  replay?: ReplayMode
  /** `traceTool` tools are answered from (and recorded in) the recording too. Default: false. */
  replayTools?: boolean
  /** A replayed session that leaves recorded calls unused fails. Default: false. */
  strict?: boolean
}

/** Where the defaults are written, as the vitest config names it. */
const WHERE = "the vitest config's test.provide.reagentFlow"

const CHECKS: Readonly<Record<keyof ProjectDefaults, { accepts: (value: unknown) => boolean; expected: string }>> = {
  replay: {
    accepts: (value) => (REPLAY_MODES as readonly unknown[]).includes(value),
    expected: `one of ${REPLAY_MODES.map((mode) => `'${mode}'`).join(', ')}`,
  },
  replayTools: { accepts: (value) => typeof value === 'boolean', expected: 'true or false' },
  strict: { accepts: (value) => typeof value === 'boolean', expected: 'true or false' },
}

// On globalThis under a registry symbol, as context.ts keeps its stores: the built package and the sources loaded side by side share one reader.
const READER_KEY = Symbol.for('reagent-flow.project-defaults.v1')
const holder = globalThis as { [READER_KEY]?: () => unknown }

/** Set by `reagent-flow/vitest` (once per worker): reads the project's `provide.reagentFlow`. */
export function setProjectDefaultsReader(read: () => unknown): void {
  holder[READER_KEY] = read
}

/** Checks what the config provides: a TypeError naming the key at fault and what it must be. */
function checkDefaults(value: unknown): ProjectDefaults {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${WHERE} must be an object such as { replay: 'auto' }, got ${JSON.stringify(value)}.`)
  }
  for (const [key, item] of Object.entries(value)) {
    const check = CHECKS[key as keyof ProjectDefaults] as (typeof CHECKS)[keyof ProjectDefaults] | undefined
    if (check === undefined) throw new TypeError(`Unknown key "${key}" in ${WHERE}. Valid keys: ${Object.keys(CHECKS).join(', ')}.`)
    if (item !== undefined && !check.accepts(item)) {
      throw new TypeError(`${WHERE}.${key} must be ${check.expected}, got ${JSON.stringify(item) ?? typeof item}.`)
    }
  }
  return value as ProjectDefaults
}

/** The defaults of the project whose test opens a session now; none outside vitest. Throws a TypeError for a bad config. */
export function projectDefaults(): ProjectDefaults {
  const read = holder[READER_KEY]
  if (read === undefined) return {}
  let value: unknown
  try {
    value = read()
  } catch {
    // Not inside a vitest worker's run (a script that imported reagent-flow/vitest): no project to read.
    return {}
  }
  return checkDefaults(value)
}
