import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { scriptedFetch, ScriptExhaustedError, type ScriptedFetch } from '../../src/entries/fake.js'
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

const TOOLS: OpenAI.Responses.Tool[] = [
  { type: 'function', name: 'lookup_order', description: 'Look an order up by id.', parameters: LOOKUP_PARAMETERS, strict: true },
  { type: 'function', name: 'issue_refund', description: 'Refund an order.', parameters: REFUND_PARAMETERS, strict: true },
]

function client(fetch: ScriptedFetch, maxRetries = 0): OpenAI {
  return instrumentOpenAI(new OpenAI({ fetch, apiKey: 'sk-test', maxRetries }))
}

/** The text of a response's message items (`output_text` is only there when the SDK added it: not on streamed responses). */
function outputText(response: OpenAI.Responses.Response): string {
  return response.output
    .flatMap((item) => (item.type === 'message' ? item.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])) : []))
    .join('')
}

/** A Responses API tool loop: output items go back as input, each function call answered by a function_call_output. */
async function responsesAgent(openai: OpenAI, stream: boolean): Promise<string> {
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: QUESTION }]
  for (let step = 0; step < 5; step++) {
    const params = { model: 'gpt-4.1', instructions: 'You refund orders.', input, tools: TOOLS }
    const response = stream ? await openai.responses.stream(params).finalResponse() : await openai.responses.create(params)
    input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]))
    const calls = response.output.flatMap((item) => (item.type === 'function_call' ? [item] : []))
    if (calls.length === 0) return outputText(response)
    for (const call of calls) {
      const args = JSON.parse(call.arguments) as RefundArgs
      const output = call.name === 'lookup_order' ? JSON.stringify(lookupOrder(args)) : issueRefund(args)
      input.push({ type: 'function_call_output', call_id: call.call_id, output })
    }
  }
  throw new Error('no answer after 5 steps')
}

describe('scriptedFetch: the OpenAI Responses API', () => {
  it.each([false, true])('drives a Responses tool loop (streamed: %s), recorded by instrumentOpenAI as a real one', async (stream) => {
    const fetch = scriptedFetch(refundScript())
    const s = await session('responses-refund', { save: false }, () => responsesAgent(client(fetch), stream))

    expect(s.output).toBe(FINAL_ANSWER)
    expectRefundRun(s.trace, { idPrefix: 'call_', model: 'gpt-4.1' })
    expect(s.trace.turns[0]!.llm_call.token_usage).toEqual({
      input_tokens: 50,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 60,
    })
    expect(fetch.requests[2]!.messages).toEqual(refundConversation('call_', 'You refund orders.'))
    expect(fetch.requests.map((request) => [request.api, request.stream])).toEqual(Array(3).fill(['responses', stream]))
  })

  it('streams the events the SDK accumulates, numbered, arguments keyed by item_id, ending with response.completed', async () => {
    const fetch = scriptedFetch([{ text: 'Let me look.', toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] }])
    const stream = await client(fetch).responses.create({ model: 'gpt-4.1', input: QUESTION, tools: TOOLS, stream: true })
    const events: OpenAI.Responses.ResponseStreamEvent[] = []
    for await (const event of stream) events.push(event)

    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i))
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ])
    const argumentDeltas = events.filter((event) => event.type === 'response.function_call_arguments.delta')
    expect(argumentDeltas.map((event) => [event.item_id, event.output_index, event.delta])).toEqual([
      ['fc_scripted_1_0', 1, '{"order_'],
      ['fc_scripted_1_0', 1, 'id":"42"'],
      ['fc_scripted_1_0', 1, '}'],
    ])
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent
    expect(completed.response.output).toEqual([
      {
        type: 'message',
        id: 'msg_scripted_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Let me look.', annotations: [] }],
      },
      { type: 'function_call', id: 'fc_scripted_1_0', call_id: 'call_1_0', name: 'lookup_order', arguments: '{"order_id":"42"}', status: 'completed' },
    ])
  })

  it('gives responses.stream() what it needs for its text events and final response', async () => {
    const fetch = scriptedFetch([{ text: 'Order 42 is on its way.' }])
    const deltas: string[] = []
    const stream = client(fetch).responses.stream({ model: 'gpt-4.1', input: QUESTION })
    stream.on('response.output_text.delta', (event) => deltas.push(event.snapshot))
    const response = await stream.finalResponse()
    expect(deltas).toEqual(['Order ', 'Order 42 ', 'Order 42 is ', 'Order 42 is on ', 'Order 42 is on its ', 'Order 42 is on its way.'])
    expect(outputText(response)).toBe('Order 42 is on its way.')
  })

  it('rejects a call past the end of the script with ScriptExhaustedError, streamed or not', async () => {
    const fetch = scriptedFetch([])
    const openai = client(fetch, 2)
    const expected =
      'scriptedFetch has no step for call #1 (POST /v1/responses, model "gpt-4.1"): the script has 0 steps. ' +
      "The call's last message was user: Refund order 42, please.. Add a step for this call to the script, or find out why the agent made it."

    await expect(openai.responses.create({ model: 'gpt-4.1', input: QUESTION })).rejects.toThrow(expected)
    const stream = await openai.responses.create({ model: 'gpt-4.1', input: QUESTION, stream: true })
    const error = await (async () => {
      for await (const _event of stream) return undefined
      return undefined
    })().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ScriptExhaustedError)
    expect(fetch.requests.map((request) => request.call)).toEqual([1, 2])
  })
})
