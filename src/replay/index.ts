/**
 * Record/replay and resume, as the rest of reagent-flow uses them: the
 * session opens and closes its steps (attach.ts), adapters ask them how a
 * call is answered (session-steps.ts), `resume()` is public.
 */
export { openSteps, stepsOf, isResume, RESUME } from './attach.js'
export { resume } from './resume.js'
export { resolveReplayMode, REPLAY_MODES, isReplayMode } from './mode.js'
export { normalizeRequest, NOT_THE_ANSWER } from './normalize.js'
export { ReplayMissError, UnusedRecordingError, RecordingFormatError } from './errors.js'
export { parseRecording, renderRecording } from './recording-format.js'

export type { ReplayMode } from './mode.js'
export type { CallAnswer, ToolAnswer, SessionSteps } from './session-steps.js'
export type { Recording, RecordingScope } from './recording-format.js'
export type { NormalizeOptions } from './normalize.js'
