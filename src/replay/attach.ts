/**
 * How a session gets its steps (see session-steps.ts): opened with the
 * session, from its options (a session opened inside another takes the
 * replay options of the outer one unless it sets its own, and else the
 * project's defaults, project-defaults.ts), found by the
 * adapters through `stepsOf(session)`, closed with it.
 */
import type { SessionOptions } from '../session/options.js'
import type { Trace } from '../trace/types.js'
import { resolveReplayMode } from './mode.js'
import { projectDefaults } from './project-defaults.js'
import { findResumable, warnFresh } from './resume-source.js'
import { SessionSteps } from './session-steps.js'
import { recordingPath, type StepRecord } from '../storage/index.js'

/** The internal option `resume()` opens its session with. */
export const RESUME: unique symbol = Symbol.for('reagent-flow.resume')

export type StepsOptions = SessionOptions & { [RESUME]?: boolean }

const registry = new WeakMap<object, SessionSteps>()

/** True for the options of a session `resume()` opened. */
export function isResume(options: StepsOptions): boolean {
  return options[RESUME] === true
}

/** The steps of `session`; undefined when it neither replays, resumes nor journals (nothing to answer or keep). */
export function stepsOf(session: object): SessionSteps | undefined {
  return registry.get(session)
}

/**
 * Opens the steps of `session` (its trace fresh, before any file is
 * written: a resumed run's trace names the run it resumes from its first
 * line). Throws for a bad `REAGENT_REPLAY` or an unreadable recording.
 */
export function openSteps(session: object, trace: Trace, options: StepsOptions, runPath: string, parent: object | undefined): SessionSteps | undefined {
  const outer = parent === undefined ? undefined : registry.get(parent)?.options
  // The session's own option, else the outer session's, else the project's (REAGENT_REPLAY overrides the mode).
  const defaults = projectDefaults()
  const mode = resolveReplayMode(options.replay ?? outer?.mode ?? defaults.replay)
  const sessionId = options.sessionId ?? null
  const userId = options.userId ?? null
  let resumed: { traceId: string; steps: readonly StepRecord[] } | undefined
  if (isResume(options)) {
    const source = findResumable(trace.name, runPath, sessionId, userId)
    if (source.found === undefined) warnFresh(runPath, source.why)
    else {
      resumed = { traceId: source.found.trace.trace_id, steps: source.found.steps }
      trace.resumed_from = resumed.traceId
    }
  }
  const journals = options.save !== false && options.journal !== false
  if (mode === 'off' && resumed === undefined && !journals) return undefined
  const steps = new SessionSteps({
    name: trace.name,
    mode,
    strict: options.strict ?? outer?.strict ?? defaults.strict ?? false,
    replayTools: options.replayTools ?? outer?.replayTools ?? defaults.replayTools ?? false,
    recordingPath: recordingPath(runPath),
    redact: options.redact,
    sessionId,
    userId,
    resumed,
  })
  registry.set(session, steps)
  return steps
}
