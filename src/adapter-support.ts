/**
 * What every adapter needs from the core, in one place. Adapters import this
 * module and the SDK they adapt, nothing else.
 *
 * - currentSession: the session to record into.
 * - runInSession: for work an SDK runs outside the async context of the
 *   session it belongs to (a stream's callbacks run in the context of
 *   whoever fed it).
 * - startModelCall, ModelCall: the one lifecycle of a model call (start,
 *   send, receive or stream or fail, recorded once, cut short when its
 *   session closes first), in the terms of model-api.ts: ModelApi (one per
 *   kind of call), ModelRequest, ModelResponse, StreamFold.
 * - recordedCreate: the instrumented `create` of the SDKs built by Stainless
 *   (openai, @anthropic-ai/sdk), over recordingPromise and tapStream.
 * - recordFetch: the instrumented `fetch` of those clients, where their
 *   requests are recorded, replayed and resumed (ModelExchange is the same
 *   for the SDKs answered at a model's own layer, through `ModelCall.send`).
 * - recordSafely: a recording failure never breaks the user's call; warn: any
 *   other warning an adapter gives (src/warnings.ts owns them).
 * - toolOutputValue: a tool's output sent back to the model, as its value.
 * - markInstrumented, patchMethod, reinstrumentWithOptions: patching one
 *   client instance, once.
 * - runToolIn, measure: a tool execution recorded (or only timed) as
 *   `traceTool` does it; admitTool: what it runs (the tool, or the fault or
 *   limit stop that replaces it), for an execution measured by other means.
 * - openChildSession: a session for an agent the SDK started inside another
 *   one's run (a handoff), closed by the SDK's events.
 * - hooks: `session[hooks]`, what adapters do to a session that its user
 *   never does (results seen in a later request, background work, steps
 *   before close): session-hooks.ts.
 * - inputMessages, outputTexts: the item shapes of the Responses API and the
 *   Agents SDK.
 * - noteOnTurn, noteOnTurnOfCall, noteOnTrace: facts kept beside the calls
 *   (guardrails, MCP servers), as extra keys of a turn or the trace;
 *   amendLatestTurn: a turn's facts as its spans tell them.
 */
export { currentSession, runInSession } from './context.js'
export { ModelCall, startModelCall } from './adapter-support/model-call.js'
export { recordedCreate } from './adapter-support/stainless-create.js'
export { recordFetch } from './adapter-support/recorded-fetch.js'
export { fromRecordedValue, toRecordedValue } from './adapter-support/recorded-values.js'
export { failingChunks, keepIterated, keepResolved, replayChunks } from './adapter-support/keep-made.js'
export { normalizeRecordedRequest } from './adapter-support/recorded-request.js'
export { recordSafely, resetAdapterWarnings } from './adapter-support/record-safely.js'
export { warn } from './warnings.js'
export { toolOutputValue } from './adapter-support/tool-output.js'
export { markNotRetryable, responseFailingWith } from './http/failing-response.js'
export { openCall, SESSION_CLOSED } from './adapter-support/open-calls.js'
export { markInstrumented, patchMethod, reinstrumentWithOptions } from './adapter-support/patch.js'
export { admitTool, measure, runToolIn } from './trace-tool.js'
export { tapStream } from './adapter-support/stream-tap.js'
export { openChildSession } from './adapter-support/child-session.js'
export { hooks } from './session-hooks.js'
export { amendLatestTurn, noteOnTrace, noteOnTurn, noteOnTurnOfCall } from './adapter-support/turn-notes.js'
export { inputMessages, outputTexts } from './adapter-support/response-items.js'

export type { DescribedFault } from './faults/model-fault.js'
export type { ModelApi, ModelExchange, ModelRequest, ModelResponse, ProviderToolResult, RequestToolResult, StreamFold } from './adapter-support/model-api.js'
export type { StreamEnd, StreamWatch } from './adapter-support/stream-tap.js'
export type { ChildSession } from './adapter-support/child-session.js'
export type { InputMessage } from './adapter-support/response-items.js'
export type { JsonObject, JsonValue } from './trace/types.js'
export type { ToolCallInput, ToolOutcome } from './recorder.js'
export type { Session } from './session.js'
export type { RecordedResponse } from './storage.js'
