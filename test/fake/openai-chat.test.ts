import OpenAI from 'openai'
import type { RunnableToolFunctionWithParse } from 'openai/lib/RunnableFunction'
import { describe, expect, it } from 'vitest'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { scriptedFetch, type ScriptedFetch } from '../../src/entries/fake.js'
import { session } from '../../src/entries/index.js'
import {
  FINAL_ANSWER,
  expectRefundRun,
  issueRefund,
  lookupOrder,
  LOOKUP_PARAMETERS,
  QUESTION,
  refundScript,
  REFUND_PARAMETERS,
  type RefundArgs,
  refundConversation,
} from './refund-kit.js'

const TOOLS: OpenAI.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'lookup_order', description: 'Look an order up by id.', parameters: LOOKUP_PARAMETERS } },
  { type: 'function', function: { name: 'issue_refund', description: 'Refund an order.', parameters: REFUND_PARAMETERS } },
]

function runTool(name: string, args: string): string {
  const parsed = JSON.parse(args) as RefundArgs
  return name === 'lookup_order' ? JSON.stringify(lookupOrder(parsed)) : issueRefund(parsed)
}

function client(fetch: ScriptedFetch, maxRetries = 0): OpenAI {
  return instrumentOpenAI(new OpenAI({ fetch, apiKey: 'sk-test', maxRetries }))
}

/** A hand-written chat-completions tool loop, streamed through the SDK's `.stream()` helper or not. */
async function chatAgent(openai: OpenAI, stream: boolean): Promise<string> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: QUESTION }]
  for (let step = 0; step < 5; step++) {
    const params = { model: 'gpt-4o', messages, tools: TOOLS }
    const completion = stream
      ? await openai.chat.completions.stream({ ...params, stream_options: { include_usage: true } }).finalChatCompletion()
      : await openai.chat.completions.create(params)
    const { content, tool_calls } = completion.choices[0]!.message
    messages.push({ role: 'assistant', content, ...(tool_calls === undefined ? {} : { tool_calls }) })
    if (!tool_calls?.length) return content ?? ''
    for (const call of tool_calls) {
      if (call.type === 'function') messages.push({ role: 'tool', tool_call_id: call.id, content: runTool(call.function.name, call.function.arguments) })
    }
  }
  throw new Error('no answer after 5 steps')
}

describe('scriptedFetch: OpenAI chat completions', () => {
  it.each([false, true])('drives a chat tool loop (streamed: %s), recorded by instrumentOpenAI as a real one', async (stream) => {
    const fetch = scriptedFetch(refundScript())
    const s = await session('chat-refund', { save: false }, () => chatAgent(client(fetch), stream))

    expect(s.output).toBe(FINAL_ANSWER)
    expectRefundRun(s.trace, { idPrefix: 'call_', model: 'gpt-4o' })
    s.assertFlow(['lookup_order', 'issue_refund'])
    expect(s.trace.turns[1]!.llm_call.token_usage).toEqual({
      input_tokens: 80,
      output_tokens: 20,
      total_tokens: 100,
      input_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    })
    expect(s.trace.turns.map((turn) => turn.llm_call['stop_reason'])).toEqual(['tool_calls', 'tool_calls', 'stop'])
    expect(fetch.remaining).toBe(0)
    expect(fetch.requests.map((request) => [request.call, request.api, request.stream])).toEqual([
      [1, 'chat.completions', stream],
      [2, 'chat.completions', stream],
      [3, 'chat.completions', stream],
    ])
    expect(fetch.requests[2]!.messages).toEqual(refundConversation('call_'))
    expect(fetch.requests[0]!.tools).toEqual([
      { name: 'lookup_order', description: 'Look an order up by id.', parameters: LOOKUP_PARAMETERS },
      { name: 'issue_refund', description: 'Refund an order.', parameters: REFUND_PARAMETERS },
    ])
  })

  it.each([false, true])("drives the SDK's runTools helper (streamed: %s)", async (stream) => {
    const fetch = scriptedFetch(refundScript())
    const openai = client(fetch)
    const functionTool = (name: string, parameters: Record<string, unknown>): RunnableToolFunctionWithParse<RefundArgs> => ({
      type: 'function',
      function: {
        name,
        description: name,
        parameters,
        parse: (input) => JSON.parse(input) as RefundArgs,
        function: (args) => (name === 'lookup_order' ? lookupOrder(args) : issueRefund(args)),
      },
    })
    const tools = [functionTool('lookup_order', LOOKUP_PARAMETERS), functionTool('issue_refund', REFUND_PARAMETERS)]
    const s = await session('run-tools', { save: false }, async () => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: QUESTION }]
      const runner = stream
        ? openai.chat.completions.runTools({ model: 'gpt-4o', messages, tools, stream: true, stream_options: { include_usage: true } })
        : openai.chat.completions.runTools({ model: 'gpt-4o', messages, tools })
      return runner.finalContent()
    })

    expect(s.output).toBe(FINAL_ANSWER)
    expectRefundRun(s.trace, { idPrefix: 'call_', model: 'gpt-4o' })
  })

  it('streams chunks as OpenAI does: the role, text deltas, tool-call deltas keyed by index, the finish, the usage chunk, [DONE]', async () => {
    const fetch = scriptedFetch([
      { text: 'Let me look.', toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' }, id: 'call_a' }], usage: { inputTokens: 7, outputTokens: 3 } },
    ])
    const stream = await client(fetch).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: QUESTION }],
      stream: true,
      stream_options: { include_usage: true },
    })
    const chunks = []
    for await (const chunk of stream) chunks.push(chunk.choices.length === 0 ? { usage: chunk.usage } : { ...chunk.choices[0], usage: chunk.usage })

    const delta = (value: unknown, finish: string | null = null) => ({ index: 0, delta: value, logprobs: null, finish_reason: finish, usage: null })
    expect(chunks).toEqual([
      delta({ role: 'assistant', content: '', refusal: null }),
      delta({ content: 'Let ' }),
      delta({ content: 'me ' }),
      delta({ content: 'look.' }),
      delta({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'lookup_order', arguments: '' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"order_' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: 'id":"42"' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '}' } }] }),
      delta({}, 'tool_calls'),
      {
        usage: {
          prompt_tokens: 7,
          completion_tokens: 3,
          total_tokens: 10,
          prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
        },
      },
    ])
  })

  it('sends no usage chunk when the request does not ask for one', async () => {
    const fetch = scriptedFetch([{ text: 'Hi.' }])
    const stream = await client(fetch).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: true })
    const chunks = []
    for await (const chunk of stream) chunks.push(chunk)
    expect(chunks.map((chunk) => [chunk.choices[0]?.delta, 'usage' in chunk])).toEqual([
      [{ role: 'assistant', content: '', refusal: null }, false],
      [{ content: 'Hi.' }, false],
      [{}, false],
    ])
  })
})
