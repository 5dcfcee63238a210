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
 *   other warning an adapter gives (src/warnings/warnings.ts owns them).
 * - toolOutputValue: a tool's output sent back to the model, as its value.
 * - markInstrumented, patchMethod, reinstrumentWithOptions: patching one
 *   client instance, once.
 * - runToolIn, measure: a tool execution recorded (or only timed) as
 *   `traceTool` does it; admitTool: what it runs (the tool, or the fault or
 *   limit stop that replaces it), for an execution measured by other means.
 * - openChildSession: a session for an agent the SDK started inside another
 *   one's run (a handoff), closed by the SDK's events.
 * - internals: `session[internals]`, what adapters do to a session that its user
 *   never does (results seen in a later request, background work, steps
 *   before close): session/internals.ts.
 * - inputMessages, outputTexts: the item shapes of the Responses API and the
 *   Agents SDK.
 * - OfferedTools: the tools a request offers (`ModelRequest.tools`),
 *   as the adapter reads its SDK's tool definitions.
 * - noteOnTurn, noteOnTurnOfCall, noteOnTrace: facts kept beside the calls
 *   (guardrails, MCP servers), as extra keys of a turn or the trace.
 * - offerToolSet: tools offered (an MCP server's listing), kept once per
 *   distinct set on the trace's `tool_sets`.
 * - runReplayableStep: a step answered from the recording with `replayTools`
 *   that is not a tool call of the trace (an MCP server's tool listing).
 * - McpServerError: an MCP server under test that could not serve.
 */
export { currentSession, runInSession } from '../session/context.js'
export { ModelCall, startModelCall } from './model-call.js'
export { recordedCreate } from './stainless-create.js'
export { recordFetch } from './recorded-fetch.js'
export { fromRecordedValue, toRecordedValue } from './recorded-values.js'
export { failingChunks, keepIterated, keepResolved, replayChunks } from './keep-made.js'
export { normalizeRecordedRequest } from './recorded-request.js'
export { recordSafely, resetAdapterWarnings } from '../warnings/record-safely.js'
export { warn } from '../warnings/warnings.js'
export { toolOutputValue } from './tool-output.js'
export { markNotRetryable, responseFailingWith } from '../http/failing-response.js'
export { openCall, SESSION_CLOSED } from './open-calls.js'
export { markInstrumented, patchMethod, reinstrumentWithOptions } from './patch.js'
export { admitTool, measure, runToolIn } from './trace-tool.js'
export { tapStream } from './stream-tap.js'
export { openChildSession } from './child-session.js'
export { internals } from '../session/internals.js'
export { noteOnTrace, noteOnTurn, noteOnTurnOfCall } from './turn-notes.js'
export { inputMessages, outputTexts } from './response-items.js'
export { normalToolSet, offerToolSet } from './tool-sets.js'
export { runReplayableStep } from './replayed-step.js'
export { McpServerError } from '../errors/index.js'

export type { DescribedFault } from '../faults/model-fault.js'
export type { ModelApi, ModelExchange, ModelRequest, ModelResponse, ProviderToolResult, RequestToolResult, StreamFold } from './model-api.js'
export type { StreamEnd, StreamWatch } from './stream-tap.js'
export type { ChildSession } from './child-session.js'
export type { InputMessage } from './response-items.js'
export type { OfferedTools } from './offered-tools.js'
export type { ToolDefinitionInput } from '../trace/tool-sets.js'
export type { JsonObject, JsonValue, ToolDefinition } from '../trace/types.js'
export type { ToolCallInput, ToolOutcome } from '../session/recorder.js'
export type { Session } from '../session/session.js'
export type { RecordedResponse } from '../storage/index.js'
