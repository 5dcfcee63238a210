/**
 * The errors of record/replay and resume. Each says which session and file,
 * what happened, and how to fix it.
 */
import { ReagentError } from '../errors.js'

/**
 * A call in `replay` mode that the recording cannot answer: the model is
 * never called instead. The message names the step, the nearest recorded
 * request and the difference between the two.
 */
export class ReplayMissError extends ReagentError {
  override name = 'ReplayMissError' as const
  readonly sessionName: string
  /** The endpoint called: `openai POST /chat/completions`. */
  readonly endpoint: string
  /** Which model call of the session it was (1 for the first). */
  readonly step: number
  readonly recordingPath: string

  constructor(message: string, fields: { sessionName: string; endpoint: string; step: number; recordingPath: string }) {
    super(message)
    this.sessionName = fields.sessionName
    this.endpoint = fields.endpoint
    this.step = fields.step
    this.recordingPath = fields.recordingPath
  }
}

/** `strict: true`: a replayed session left recorded calls unused (the agent no longer makes them). */
export class UnusedRecordingError extends ReagentError {
  override name = 'UnusedRecordingError' as const
  readonly sessionName: string
  readonly recordingPath: string
  /** The endpoints of the unused calls, one per call, in recorded order. */
  readonly unused: readonly string[]

  constructor(message: string, fields: { sessionName: string; recordingPath: string; unused: readonly string[] }) {
    super(message)
    this.sessionName = fields.sessionName
    this.recordingPath = fields.recordingPath
    this.unused = fields.unused
  }
}

/** A recording file that is not one (hand-edited, cut short, another tool's). */
export class RecordingFormatError extends ReagentError {
  override name = 'RecordingFormatError' as const
  readonly path: string

  constructor(path: string, problem: string) {
    super(`${path} is not a readable reagent-flow recording: ${problem}. Record it again (REAGENT_REPLAY=record) or delete it.`)
    this.path = path
  }
}
