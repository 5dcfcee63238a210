/**
 * A simulation's request as one `invoke` of a LangChain chat model, its tools
 * bound with `bindTools`, recorded (and replayed) through the LangChain
 * adapter: `instrumentLangChain()` (idempotent) adds its handler to every run
 * started in a session and hooks the model's calls so a recording answers them.
 */
import type { ChatModelLike, ModelAnswer, ModelRequest } from '../model-types.js'
import { parsedToolCallOf } from './tool-arguments.js'

interface AiMessageLike {
  content?: unknown
  tool_calls?: Array<{ name?: unknown; args?: unknown }>
  invalid_tool_calls?: Array<{ name?: unknown; args?: unknown }>
}

type Invokable = { invoke(input: unknown): PromiseLike<unknown> }

/** The text of a message's content: a string, or the text parts of a list. */
function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content === '' ? null : content
  if (!Array.isArray(content)) return null
  const texts = content.flatMap((part: unknown) => {
    const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown }
    return type === 'text' && typeof text === 'string' ? [text] : []
  })
  return texts.length === 0 ? null : texts.join('')
}

function answerOf(message: AiMessageLike): ModelAnswer {
  const toolCalls = [...(message.tool_calls ?? []), ...(message.invalid_tool_calls ?? [])]
    .filter((call) => typeof call.name === 'string')
    .map((call) => parsedToolCallOf(call.name as string, call.args))
  return { text: textOf(message.content), toolCalls }
}

/** The model, its tools bound when there are any (`any`: LangChain's word for a required tool, which ChatOpenAI sends as `required`). */
function bound(who: string, model: ChatModelLike, request: ModelRequest): Invokable {
  const tools = request.tools ?? []
  if (tools.length === 0) return model as unknown as Invokable
  if (typeof model.bindTools !== 'function') {
    throw new TypeError(
      `${who}: this LangChain chat model has no bindTools(), and answering needs a tool call. Use a chat model that supports tool calling (ChatOpenAI, ChatAnthropic, scriptedChatModel).`,
    )
  }
  const definitions = tools.map(({ name, description, parameters }) => ({ type: 'function', function: { name, description, parameters } }))
  const toolChoice = request.toolChoice === 'required' ? 'any' : 'auto'
  return (model.bindTools as (tools: unknown, kwargs: unknown) => Invokable).call(model, definitions, { tool_choice: toolChoice })
}

export async function askChatModel(who: string, model: ChatModelLike, request: ModelRequest): Promise<ModelAnswer> {
  const { instrumentLangChain } = await import('../../../adapters/langchain/instrument.js')
  instrumentLangChain()
  const messages = [{ role: 'system', content: request.system }, ...request.messages.map(({ role, content }) => ({ role, content }))]
  const message = (await bound(who, model, request).invoke(messages)) as AiMessageLike
  return answerOf(message ?? {})
}
