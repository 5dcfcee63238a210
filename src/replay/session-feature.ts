/**
 * Replay and resume as a feature of the session: its steps (see
 * session-steps.ts) are opened with the session, from its options (a session
 * opened inside another takes the replay options of the outer one unless it
 * sets its own, and else the project's defaults, project-defaults.ts), kept
 * on the session under STEPS for the adapters, told of the journal once it is
 * open, and closed with the session, before its trace file is written.
 */
import { internals, FeatureKey } from '../session/internals.js'
import { isResume, RESUME, type RecordingOptions } from '../session/options.js'
import { RUN_FILES } from '../session/files-feature.js'
import type { Session, SessionFeature } from '../session/session.js'
import type { Trace } from '../trace/types.js'
import { resolveReplayMode, type ReplayMode } from './mode.js'
import { projectDefaults } from './project-defaults.js'
import { findResumable, warnFresh } from './resume-source.js'
import { SessionSteps } from './session-steps.js'
import { recordingPath, type StepRecord } from '../storage/index.js'

/** The options of record/replay and resume. */
export interface ReplayOptions {
  /**
   * Record model calls, or answer them from the recording instead of calling
   * the model (README, "Record and replay"): `'off'`, `'record'` (call the
   * model and save the calls as the run's recording), `'replay'` (never call
   * the model; a call the recording cannot answer fails), `'auto'` (answer
   * what is recorded, record the rest; under `CI`, as `'replay'`).
   * `REAGENT_REPLAY` overrides it. Default: `'off'` (a session opened inside
   * another: the outer one's).
   * @example { replay: 'auto' }
   */
  replay?: ReplayMode
  /** A replayed session that completes with recorded calls unused fails with `UnusedRecordingError` (instead of a warning). Default: false. */
  strict?: boolean
  /**
   * `traceTool` tools are answered from the recording too (for tools that
   * call paid or external services), in `'replay'` and `'auto'`. Default:
   * false (tools run for real in every mode).
   */
  replayTools?: boolean
}

/** The options replay reads, with the internal option of `resume()`. */
type StepsOptions = RecordingOptions & ReplayOptions & { [RESUME]?: boolean }

/** The steps of a session; none when it neither replays, resumes nor journals (nothing to answer or keep). */
export const STEPS = new FeatureKey<SessionSteps>('replay steps')

export const replayFeature: SessionFeature = {
  attach(session: Session, options: StepsOptions, parent: Session | undefined): void {
    const inner = session[internals]
    const steps = openSteps(inner.trace, options, inner.location.runPath, parent?.[internals].get(STEPS))
    if (steps === undefined) return
    inner.set(STEPS, steps)
    inner.lifecycle.on('opened', () => steps.attachJournal(inner.get(RUN_FILES)?.steps))
    // Record/replay and resume: what the run replayed, its recording written, unused recorded calls reported.
    inner.lifecycle.on('closing', (trace, status) => {
      steps.close(trace, status)
      if (steps.pruned !== undefined) inner.testScope?.recordPruned(steps.pruned)
    })
  },
}

/**
 * Opens the steps of a session (its trace fresh, before any file is
 * written: a resumed run's trace names the run it resumes from its first
 * line). Throws for a bad `REAGENT_REPLAY` or an unreadable recording.
 */
function openSteps(trace: Trace, options: StepsOptions, runPath: string, outerSteps: SessionSteps | undefined): SessionSteps | undefined {
  const outer = outerSteps?.options
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
  return new SessionSteps({
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
}
