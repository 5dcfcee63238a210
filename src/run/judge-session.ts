/**
 * The run a judge works in, whichever judge it is (a goal judge of
 * `toReachGoal`, a `judge({ rubric, model })`): the session
 * `<judged name> > judge`, a child of the judged run (`parent_trace_id`,
 * `metadata.reagent_role: 'judge'`) written beside it and redacted as it
 * is, replaying as it did, and counted as a helper run of the judged
 * Session, so `s.spend()` bills the judge apart from the agent. The verdict
 * becomes the judged run's `grade`, in memory and in its file.
 */
import { shownPath } from '../golden/index.js'
import { STEPS } from '../replay/session-feature.js'
import { runOutsideSessions } from '../session/context.js'
import { addHelperRun } from '../session/helper-runs.js'
import { internals } from '../session/internals.js'
import { Session as RecordingSession } from '../session/session.js'
import { updateGrade } from '../storage/index.js'
import { redactForDisk, type RedactOption } from '../redact/index.js'
import type { Grade, JsonObject, Trace } from '../trace/types.js'
import { warn } from '../warnings/warnings.js'
import type { SessionOptions } from './options.js'
import { session, type ClosedSession, type Session } from './session.js'

/** What a Session adds to its trace: where its files are, how they are redacted, whether it is still open. */
export interface RunSettings {
  traceDir?: string
  redact?: RedactOption
  path?: string
  isOpen: boolean
}

export function settingsOf(source: unknown): RunSettings {
  if (source === null || typeof source !== 'object') return { isOpen: false }
  const fields = source as { traceDir?: unknown; redact?: unknown; path?: unknown; closed?: unknown }
  return {
    ...(typeof fields.traceDir === 'string' ? { traceDir: fields.traceDir } : {}),
    ...(fields.redact === undefined ? {} : { redact: fields.redact as RedactOption }),
    ...(typeof fields.path === 'string' && fields.path !== '' ? { path: fields.path } : {}),
    isOpen: fields.closed === false,
  }
}

/** The replay options of the judged session, so its judge records and replays with it (a Trace or a chain node has none: the project's defaults apply). */
function replayOptionsOf(source: unknown): SessionOptions {
  if (!(source instanceof RecordingSession)) return {}
  const steps = source[internals].get(STEPS)?.options
  return steps === undefined ? {} : { replay: steps.mode, strict: steps.strict, replayTools: steps.replayTools }
}

/**
 * Runs `decide` in the judge's own session, a child of the judged run, and
 * resolves to that closed session (its `output` is what `decide` returned).
 * `metadata` is added to the judge run's (after its role and the judged run).
 * A judge that throws rejects with its error, unchanged: its run is failed.
 */
export async function runJudgeSession<V>(source: unknown, trace: Trace, metadata: JsonObject, decide: (own: Session) => Promise<V>): Promise<ClosedSession<V>> {
  const settings = settingsOf(source)
  // Beside the judged session's run, redacted as it is; written only when that run was (a chain node or a Trace has no traceDir to put it in).
  const options: SessionOptions = {
    metadata: { reagent_role: 'judge', judged_trace_id: trace.trace_id, judged_name: trace.name, ...metadata },
    parentTraceId: trace.trace_id,
    save: settings.path !== undefined && settings.traceDir !== undefined,
    ...(settings.traceDir === undefined ? {} : { traceDir: settings.traceDir }),
    ...(settings.redact === undefined ? {} : { redact: settings.redact }),
    ...replayOptionsOf(source),
  }
  // Outside every session: a judge run inside a suite's session is the judged run's child, not the suite's.
  return runOutsideSessions(() =>
    session<V>(`${trace.name} > judge`, options, (own) => {
      if (source instanceof RecordingSession) addHelperRun(source, 'judge', own)
      return decide(own)
    }),
  )
}

/** Records `grade` on the judged run: in memory always, in its file when it has one (redacted as the run was). */
export function recordGrade(trace: Trace, grade: Grade, source: unknown): void {
  trace.grade = grade
  const settings = settingsOf(source)
  if (settings.path === undefined) return
  const file = settings.path
  try {
    updateGrade(file, () => redactForDisk(grade, settings.redact))
  } catch (error) {
    warn(
      'REAGENT_WRITE',
      `the judge's verdict on "${trace.name}" could not be written to ${shownPath(file)} (${error instanceof Error ? error.message : String(error)}); it is kept in memory on trace.grade.`,
    )
  }
}
