/**
 * The parts of Anthropic's Messages API objects that the adapter reads, as
 * they travel on the wire. `messages` and `beta.messages` share them, and they
 * hold across SDK versions, so the adapter types against these rather than
 * the SDK's (stricter, version-specific) unions. Everything is read
 * defensively: a field the API stops sending is recorded as missing, never a crash.
 */

/** A content block of a response (`text`, `tool_use`, `server_tool_use`, `web_search_tool_result`, ...). */
export interface WireBlock {
  type: string
  id?: string
  name?: string
  input?: unknown
  text?: string
  /** Server tool results (`web_search_tool_result`, `mcp_tool_result`, ...) name the call they answer. */
  tool_use_id?: string
  content?: unknown
  is_error?: boolean
}

/** A response message (`type: "message"`), whole or as accumulated from a stream. */
export interface WireMessage {
  model?: string
  content?: WireBlock[]
  stop_reason?: string | null
  usage?: Record<string, unknown> | null
}

/** One server-sent event of a streamed response, as the SDK's `Stream` yields it. */
export type WireEvent =
  | { type: 'message_start'; message: WireMessage }
  | { type: 'content_block_start'; index: number; content_block: WireBlock }
  | { type: 'content_block_delta'; index: number; delta: { type: string; text?: string; partial_json?: string } }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason?: string | null }; usage?: Record<string, unknown> | null }
  | { type: 'message_stop' }

/** A message of the request (`messages[]`). */
export interface WireMessageParam {
  role?: string
  content?: unknown
}

/** A tool of the request: a client tool (`input_schema`) or one Anthropic defines (a versioned `type`). */
export interface WireTool {
  name?: unknown
  type?: unknown
  description?: unknown
  input_schema?: unknown
}

/** The request parameters of `messages.create()` that the adapter reads. */
export interface WireCreateParams {
  model?: string
  system?: unknown
  messages?: readonly WireMessageParam[]
  tools?: readonly unknown[]
  stream?: boolean
}
