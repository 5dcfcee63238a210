/**
 * A simulation's request as an Anthropic message, through the client the
 * test gave (instrumented on first use, so the call records into the current
 * session and replays from its recording).
 */
import type { ClientModel, ModelAnswer, ModelRequest } from '../model-types.js'
import { parsedToolCallOf } from './tool-arguments.js'

/** The part of an Anthropic client this file calls. */
export interface AnthropicClientLike {
  messages: { create(body: object): PromiseLike<unknown> }
}

interface Message {
  content?: Array<{ type?: string; text?: string; name?: string; input?: unknown }>
}

/** Anthropic requires `max_tokens`; this is the answer of a simulated user or tool, short. */
const DEFAULT_MAX_TOKENS = 1024

/**
 * The Messages API wants a chat that starts with the user: a model asked to
 * speak first (a simulated user with no opening line) is handed this cue.
 */
const START_CUE = '(The conversation starts now: write the first message.)'

/** The message body: the system prompt apart, `tool_choice: any` for a required tool. */
function anthropicBody(model: ClientModel, request: ModelRequest): object {
  const tools = request.tools ?? []
  const messages = request.messages.map(({ role, content }) => ({ role, content }))
  if (messages[0]?.role !== 'user') messages.unshift({ role: 'user', content: START_CUE })
  return {
    model: model.model,
    max_tokens: model.maxTokens ?? DEFAULT_MAX_TOKENS,
    system: request.system,
    messages,
    ...(tools.length === 0
      ? {}
      : {
          tools: tools.map(({ name, description, parameters }) => ({ name, description, input_schema: parameters })),
          tool_choice: { type: request.toolChoice === 'required' ? 'any' : 'auto' },
        }),
    ...(model.temperature === undefined ? {} : { temperature: model.temperature }),
  }
}

export async function askAnthropic(client: AnthropicClientLike, model: ClientModel, request: ModelRequest): Promise<ModelAnswer> {
  const { instrumentAnthropic } = await import('../../../adapters/anthropic/instrument.js')
  instrumentAnthropic(client as never)
  const message = (await client.messages.create(anthropicBody(model, request))) as Message
  const blocks = message.content ?? []
  const texts = blocks.filter((block) => block.type === 'text' && typeof block.text === 'string').map((block) => block.text as string)
  const toolCalls = blocks
    .filter((block) => block.type === 'tool_use' && typeof block.name === 'string')
    .map((block) => parsedToolCallOf(block.name as string, block.input))
  return { text: texts.length === 0 ? null : texts.join(''), toolCalls }
}
