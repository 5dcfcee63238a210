/**
 * A simulation's request as an OpenAI chat completion, through the client
 * the test gave (instrumented on first use, so the call records into the
 * current session and replays from its recording).
 */
import type { ClientModel, ModelAnswer, ModelRequest } from '../model-types.js'
import { toolCallOf } from './tool-arguments.js'

/** The part of an OpenAI client this file calls. */
export interface OpenAIClientLike {
  chat: { completions: { create(body: object): PromiseLike<unknown> } }
}

interface Completion {
  choices?: Array<{ message?: { content?: string | null; tool_calls?: Array<{ type?: string; function?: { name?: string; arguments?: string } }> } }>
}

/** The chat completion body: the system prompt first, the tools as function tools. */
function openaiBody(model: ClientModel, request: ModelRequest): object {
  const tools = request.tools ?? []
  return {
    model: model.model,
    messages: [{ role: 'system', content: request.system }, ...request.messages.map(({ role, content }) => ({ role, content }))],
    ...(tools.length === 0
      ? {}
      : {
          tools: tools.map(({ name, description, parameters }) => ({ type: 'function', function: { name, description, parameters } })),
          tool_choice: request.toolChoice ?? 'auto',
        }),
    ...(model.maxTokens === undefined ? {} : { max_completion_tokens: model.maxTokens }),
    ...(model.temperature === undefined ? {} : { temperature: model.temperature }),
  }
}

export async function askOpenAI(client: OpenAIClientLike, model: ClientModel, request: ModelRequest): Promise<ModelAnswer> {
  const { instrumentOpenAI } = await import('../../../adapters/openai/instrument.js')
  instrumentOpenAI(client as never)
  const completion = (await client.chat.completions.create(openaiBody(model, request))) as Completion
  const message = completion.choices?.[0]?.message
  const toolCalls = (message?.tool_calls ?? [])
    .filter((call) => call.type === 'function' && typeof call.function?.name === 'string')
    .map((call) => toolCallOf(call.function?.name ?? '', call.function?.arguments ?? ''))
  return { text: typeof message?.content === 'string' ? message.content : null, toolCalls }
}
