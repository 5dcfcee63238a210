/**
 * What every adapter needs from the core, in one place. Adapters import this
 * module and the SDK they adapt, nothing else.
 *
 * - currentSession: the session to record into.
 * - epochSeconds: the recorder's clock, so an adapter's call timestamps and
 *   the recorder's result times (turn durations) are read from one clock.
 * - runInSession: for work an SDK runs outside the async context of the
 *   session it belongs to (a stream's callbacks run in the context of
 *   whoever fed it).
 * - recordSafely: a recording failure never breaks the user's call.
 * - toolOutputValue: a tool's output sent back to the model, as its value.
 * - openCall: a call still waiting for its response is recorded, cut short,
 *   when its session closes first.
 * - markInstrumented, patchMethod, reinstrumentWithOptions: patching one
 *   client instance, once.
 * - runToolIn, measure: a tool execution recorded (or only timed) as
 *   `traceTool` does it.
 * - recordingPromise, tapStream, isStream: the APIPromise and Stream of the
 *   SDKs built by Stainless (openai, @anthropic-ai/sdk), recorded unchanged.
 */
export { currentSession, runInSession } from './context.js'
export { epochSeconds } from './trace/ids.js'
export { recordSafely, resetAdapterWarnings } from './adapter-support/record-safely.js'
export { toolOutputValue } from './adapter-support/tool-output.js'
export { markNotRetryable, responseFailingWith } from './adapter-support/failing-response.js'
export { openCall, SESSION_CLOSED } from './adapter-support/open-calls.js'
export { markInstrumented, patchMethod, reinstrumentWithOptions } from './adapter-support/patch.js'
export { measure, runToolIn } from './trace-tool.js'
export { recordingPromise } from './adapter-support/recording-promise.js'
export { isStream, tapStream } from './adapter-support/stream-tap.js'

export type { ResponseWatch } from './adapter-support/recording-promise.js'
export type { StreamEnd, StreamWatch } from './adapter-support/stream-tap.js'
export type { LlmCallInput, ToolCallInput, ToolOutcome } from './recorder.js'
export type { Session } from './session.js'
