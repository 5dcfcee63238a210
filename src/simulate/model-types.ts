/**
 * The models a simulation talks to (a simulated user, a simulated tool's
 * answer, a judge), and the one request shape they are asked with: a system
 * prompt, a chat from the asker's side, and the tools it may call (a
 * structured answer: `end_conversation`, a tool's result). ask-model.ts
 * turns it into each SDK's call, through the client the test gave, so the
 * call is recorded and replayed by that SDK's adapter.
 *
 * The SDK types are described by their shape here, not imported: the
 * subpath must not make a user of one SDK install the others' types.
 */
import type { JsonObject } from '../trace/types.js'

/** An OpenAI or Anthropic client (instrumented or not: it is instrumented on first use) and the model to ask. */
export interface ClientModel {
  /** `new OpenAI()` from "openai" or `new Anthropic()` from "@anthropic-ai/sdk". */
  client: object
  /** The model's name, e.g. `'gpt-4o-mini'` or `'claude-haiku-4-5'`. */
  model: string
  /** The most tokens to answer with (Anthropic requires one). Default: 1024. */
  maxTokens?: number
  /** Sampling temperature. Default: the provider's. */
  temperature?: number
}

/** An AI SDK `LanguageModel` (spec V3): `openai('gpt-4o')`, a `wrapLanguageModel(...)`, `scriptedLanguageModel(...)`. */
export interface LanguageModelLike {
  readonly specificationVersion: string
  readonly modelId: string
  doGenerate(options: never): PromiseLike<unknown>
}

/** A LangChain chat model (`BaseChatModel`): `new ChatOpenAI(...)`, `scriptedChatModel(...)`. */
export interface ChatModelLike {
  invoke(input: never, options?: never): PromiseLike<unknown>
  bindTools?(tools: never, options?: never): unknown
}

/** Any model a simulation can ask. */
export type SimulationModel = ClientModel | LanguageModelLike | ChatModelLike

/** One message of the chat a model is shown, from the asker's side (`assistant` is the model itself). */
export interface ChatMessage {
  role: 'user' | 'assistant'
  content: string
}

/** A tool offered to the model for a structured answer. */
export interface ModelTool {
  name: string
  description: string
  /** JSON Schema of its arguments (an object schema). */
  parameters: JsonObject
}

export interface ModelRequest {
  system: string
  messages: readonly ChatMessage[]
  tools?: readonly ModelTool[]
  /** `required`: the model must call one of `tools` (a simulated tool's answer); default `auto`. */
  toolChoice?: 'auto' | 'required'
}

/** A tool the model called, with its arguments parsed. */
export interface ModelToolCall {
  name: string
  /** The arguments as an object (`{}` when they were not a JSON object: see `rawArguments`). */
  arguments: JsonObject
  /** Set only when the model's arguments were not a JSON object: the text as it wrote them. */
  rawArguments?: string
}

/** What the model answered: its text (null when it wrote none) and the tools it called, with parsed arguments. */
export interface ModelAnswer {
  text: string | null
  toolCalls: ModelToolCall[]
}
