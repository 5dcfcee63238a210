/**
 * Asking any model a simulation is given (see model-types.ts) through its
 * own SDK, so the call is an ordinary call of that SDK: recorded by its
 * adapter into the current session (a helper session, when a simulation
 * asks), replayed from its recording, failed by the run's faults. Each SDK's
 * adapter is imported on the first ask of a model of its kind, so importing
 * `reagent-flow/simulate` loads none of them.
 *
 * `checkModel` reads the kind once, where the model is given (a
 * `simulatedUser`, a `simulatedTool`, a judge), so a wrong value is a
 * TypeError there, naming the fix, not at the first turn.
 */
import { askAnthropic, type AnthropicClientLike } from './models/anthropic-client.js'
import { askLanguageModel } from './models/ai-sdk-model.js'
import { askChatModel } from './models/langchain-model.js'
import { askOpenAI, type OpenAIClientLike } from './models/openai-client.js'
import type { ChatModelLike, ClientModel, LanguageModelLike, ModelAnswer, ModelRequest, SimulationModel } from './model-types.js'

type ModelKind =
  | { kind: 'openai'; client: OpenAIClientLike; model: ClientModel }
  | { kind: 'anthropic'; client: AnthropicClientLike; model: ClientModel }
  | { kind: 'ai-sdk'; model: LanguageModelLike }
  | { kind: 'langchain'; model: ChatModelLike }

const ACCEPTED =
  'one of: { client, model } (an OpenAI or Anthropic client and a model name, e.g. { client: new OpenAI(), model: "gpt-4o-mini" }), ' +
  'an AI SDK LanguageModel (e.g. openai("gpt-4o-mini")), a LangChain chat model (e.g. new ChatOpenAI({ model: "gpt-4o-mini" })), ' +
  'or a scripted model from reagent-flow/fake (scriptedLanguageModel, scriptedChatModel)'

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function')
}

function hasMethod(value: unknown, ...path: string[]): boolean {
  let at: unknown = value
  for (const key of path) {
    if (!isObject(at)) return false
    at = at[key]
  }
  return typeof at === 'function'
}

function isOpenAIClient(value: unknown): value is OpenAIClientLike {
  return hasMethod(value, 'chat', 'completions', 'create')
}

function isAnthropicClient(value: unknown): value is AnthropicClientLike {
  return hasMethod(value, 'messages', 'create')
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`
  if (!isObject(value)) return typeof value
  const name = (value.constructor as { name?: unknown } | undefined)?.name
  return typeof name === 'string' && name !== 'Object' ? `a ${name}` : 'an object'
}

/** The kind of `value`, or why it is none (a hint naming the fix). */
function kindOf(value: unknown): ModelKind | string {
  if (typeof value === 'string') return `a model name alone names no client: pass { client, model: ${JSON.stringify(value)} }`
  if (!isObject(value)) return ''
  // Before `client`: a LangChain model has one of its own (ChatOpenAI's OpenAI client, set on its first call).
  if (typeof value.invoke === 'function') return { kind: 'langchain', model: value as unknown as ChatModelLike }
  if ('client' in value) {
    const { client, model } = value
    if (typeof model !== 'string' || model === '') return `{ client, model } needs the model's name, e.g. model: "gpt-4o-mini"`
    if (isOpenAIClient(client)) return { kind: 'openai', client, model: value as unknown as ClientModel }
    if (isAnthropicClient(client)) return { kind: 'anthropic', client, model: value as unknown as ClientModel }
    return `its client is ${describe(client)}, neither an OpenAI client (new OpenAI()) nor an Anthropic one (new Anthropic())`
  }
  if (isOpenAIClient(value) || isAnthropicClient(value)) return `a client needs the model to ask: pass { client, model: "gpt-4o-mini" }`
  if (typeof value.specificationVersion === 'string' && typeof value.doGenerate === 'function') {
    if (value.specificationVersion !== 'v3')
      return `it is an AI SDK model of specification ${value.specificationVersion}; AI SDK 6 models (specification v3) are supported`
    return { kind: 'ai-sdk', model: value as unknown as LanguageModelLike }
  }
  return ''
}

function modelError(who: string, value: unknown, hint: string): TypeError {
  return new TypeError(`${who}: model must be ${ACCEPTED}; got ${describe(value)}${hint === '' ? '' : ` (${hint})`}.`)
}

function kindOrThrow(who: string, value: unknown): ModelKind {
  const kind = kindOf(value)
  if (typeof kind === 'string') throw modelError(who, value, kind)
  return kind
}

/** `value` as a SimulationModel, or a TypeError naming `who`, the accepted kinds and the fix. */
export function checkModel(who: string, value: unknown): SimulationModel {
  return kindOrThrow(who, value).model
}

/** A short name of the model, for metadata and messages: `openai:gpt-4o-mini`, `openai.chat:gpt-4o`, `ChatOpenAI:gpt-4o-mini`. */
export function modelLabel(model: SimulationModel): string {
  const kind = kindOf(model)
  if (typeof kind === 'string') return 'an unknown model'
  switch (kind.kind) {
    case 'openai':
    case 'anthropic':
      return `${kind.kind}:${kind.model.model}`
    case 'ai-sdk': {
      const provider = (kind.model as { provider?: unknown }).provider
      return typeof provider === 'string' ? `${provider}:${kind.model.modelId}` : kind.model.modelId
    }
    case 'langchain': {
      const named = kind.model as { getName?: () => unknown; model?: unknown; modelName?: unknown }
      const name = typeof named.getName === 'function' ? String(named.getName()) : 'LangChain'
      const id = typeof named.model === 'string' ? named.model : typeof named.modelName === 'string' ? named.modelName : undefined
      return id === undefined ? name : `${name}:${id}`
    }
  }
}

/**
 * Asks `model` (checked again: `who` names the asker in the TypeError) for
 * one answer to `request`, through its SDK, in the current session. An
 * error of the SDK reaches the caller unchanged.
 */
export async function askModel(who: string, model: SimulationModel, request: ModelRequest): Promise<ModelAnswer> {
  const kind = kindOrThrow(who, model)
  switch (kind.kind) {
    case 'openai':
      return askOpenAI(kind.client, kind.model, request)
    case 'anthropic':
      return askAnthropic(kind.client, kind.model, request)
    case 'ai-sdk':
      return askLanguageModel(kind.model, request)
    case 'langchain':
      return askChatModel(who, kind.model, request)
  }
}
