/**
 * The one script format every scripted model reads, and the provider-neutral
 * request a function step is given.
 */

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  name: string
  /** The tool's arguments (sent to the SDK as JSON); `{}` when left out. */
  arguments?: Record<string, unknown>
  /** The call id the SDK sees; a deterministic one in the provider's shape when left out (`call_2_0`, `toolu_2_0`). */
  id?: string
}

/** Token counts to report instead of the estimate (see `ScriptRequest`). */
export interface ScriptedUsage {
  inputTokens?: number
  outputTokens?: number
}

/** The model answers: with text, with tool calls, or both (text first, as models write it). */
export interface AnswerStep {
  text?: string
  toolCalls?: readonly ScriptedToolCall[]
  usage?: ScriptedUsage
}

/** The provider fails the call with an HTTP error, which the SDK handles (and retries) by its own rules. */
export interface ErrorStep {
  error: {
    status: number
    message: string
    /** The provider's error type; by default the one the provider sends for `status` (`rate_limit_error`, `server_error`, ...). */
    type?: string
    /** OpenAI's error `code` (e.g. `insufficient_quota`); by default the one OpenAI sends for `status`. */
    code?: string
  }
}

/** What a step resolves to. */
export type ScriptAnswer = AnswerStep | ErrorStep

/** One step of a script: an answer, or a function that answers from the request. */
export type ScriptStep = ScriptAnswer | ((request: ScriptRequest) => ScriptAnswer | Promise<ScriptAnswer>)

/** The steps a scripted model answers with, one per model call, in order. */
export type Script = readonly ScriptStep[]

/** A tool call in the conversation the model was sent. */
export interface ScriptRequestToolCall {
  id: string
  name: string
  /** Parsed from JSON; the raw string when it is not JSON. */
  arguments: unknown
}

/** A message of the conversation, whatever the SDK: text parts joined into `content`. */
export type ScriptMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ScriptRequestToolCall[] }
  /** A tool's result, as the text sent to the model (a JSON value as JSON); `name` when the conversation says which tool ran. */
  | { role: 'tool'; content: string; toolCallId: string; name?: string }

/** A function tool the model was offered. */
export interface ScriptTool {
  name: string
  description?: string
  /** The JSON Schema of the tool's arguments. */
  parameters?: unknown
}

/** Which API the call came through. */
export type ScriptApi = 'chat.completions' | 'responses' | 'messages' | 'language-model' | 'chat-model'

/**
 * A model call, as a function step sees it, in the same shape for every SDK.
 *
 * Token usage is deterministic: unless a step gives `usage`, input tokens are
 * one per four characters of the messages (content, tool-call names and JSON
 * arguments) and tools (name, description, JSON parameters), output tokens one
 * per four characters of the answer's text, tool names and JSON arguments,
 * rounded up, at least 1.
 */
export interface ScriptRequest {
  /** The number of this call, from 1, counted over the scripted model's life. */
  readonly call: number
  readonly api: ScriptApi
  readonly model: string | undefined
  readonly messages: readonly ScriptMessage[]
  readonly tools: readonly ScriptTool[]
  /** Whether the caller asked for a stream. */
  readonly stream: boolean
  /** What the SDK sent, untouched: the parsed JSON body, the AI SDK's call options, or LangChain's `{ messages, options }`. */
  readonly body: unknown
}

/** How far a scripted model got through its script. */
export interface ScriptProgress {
  /** Every call made so far, in order (also the calls the script had no step for). */
  readonly requests: readonly ScriptRequest[]
  /** Steps not used yet. */
  readonly remaining: number
}
