import Anthropic from '@anthropic-ai/sdk'
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema'
import { describe, expect, it } from 'vitest'
import { instrumentAnthropic } from '../../src/entries/anthropic.js'
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
  refundConversation,
} from './refund-kit.js'

const MODEL = 'claude-sonnet-4-6'
const TOOLS: Anthropic.Tool[] = [
  { name: 'lookup_order', description: 'Look an order up by id.', input_schema: LOOKUP_PARAMETERS },
  { name: 'issue_refund', description: 'Refund an order.', input_schema: REFUND_PARAMETERS },
]

function client(fetch: ScriptedFetch, maxRetries = 0): Anthropic {
  return instrumentAnthropic(new Anthropic({ fetch, apiKey: 'sk-ant-test', maxRetries }))
}

function runTool(name: string, input: unknown): string {
  const args = input as { order_id: string; amount: number }
  return name === 'lookup_order' ? JSON.stringify(lookupOrder(args)) : issueRefund(args)
}

/** Anthropic's tool loop: tool_use blocks answered by tool_result blocks in the next user message. */
async function anthropicAgent(anthropic: Anthropic, stream: boolean): Promise<string> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: QUESTION }]
  for (let step = 0; step < 5; step++) {
    const params = { model: MODEL, max_tokens: 1024, system: 'You refund orders.', tools: TOOLS, messages }
    const response = stream ? await anthropic.messages.stream(params).finalMessage() : await anthropic.messages.create(params)
    messages.push({ role: 'assistant', content: response.content })
    if (response.stop_reason !== 'tool_use') return response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
    const results: Anthropic.ToolResultBlockParam[] = response.content.flatMap((block) =>
      block.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: block.id, content: runTool(block.name, block.input) }] : [],
    )
    messages.push({ role: 'user', content: results })
  }
  throw new Error('no answer after 5 steps')
}

describe('scriptedFetch: the Anthropic Messages API', () => {
  it.each([false, true])('drives a tool loop (streamed: %s), recorded by instrumentAnthropic as a real one', async (stream) => {
    const fetch = scriptedFetch(refundScript())
    const s = await session('anthropic-refund', { save: false }, () => anthropicAgent(client(fetch), stream))

    expect(s.output).toBe(FINAL_ANSWER)
    expectRefundRun(s.trace, { idPrefix: 'toolu_', model: MODEL })
    expect(s.trace.turns[2]!.llm_call.token_usage).toEqual({ input_tokens: 120, output_tokens: 8, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 })
    expect(s.trace.turns.map((turn) => turn.llm_call['stop_reason'])).toEqual(['tool_use', 'tool_use', 'end_turn'])
    expect(fetch.requests[2]!.messages).toEqual(refundConversation('toolu_', 'You refund orders.'))
  })

  it("drives the SDK's beta toolRunner", async () => {
    const fetch = scriptedFetch(refundScript())
    const anthropic = client(fetch)
    const lookupSchema = { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } as const
    const refundSchema = { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } }, required: ['order_id', 'amount'] } as const
    const tools = [
      betaTool({ name: 'lookup_order', description: 'Look an order up by id.', inputSchema: lookupSchema, run: (input) => JSON.stringify(lookupOrder(input)) }),
      betaTool({ name: 'issue_refund', description: 'Refund an order.', inputSchema: refundSchema, run: (input) => issueRefund(input) }),
    ]
    const s = await session('tool-runner', { save: false }, async () => {
      const final = await anthropic.beta.messages
        .toolRunner({ model: MODEL, max_tokens: 1024, tools, messages: [{ role: 'user', content: QUESTION }] })
        .runUntilDone()
      return final.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
    })

    expect(s.output).toBe(FINAL_ANSWER)
    expectRefundRun(s.trace, { idPrefix: 'toolu_', model: MODEL })
  })

  it('streams message_start, a start/delta/stop run per content block, message_delta with the stop reason and usage, message_stop', async () => {
    // (and a ping after message_start, as the API does, which the SDK's Stream drops)
    const fetch = scriptedFetch([
      { text: 'Let me look.', toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }], usage: { inputTokens: 9, outputTokens: 4 } },
    ])
    const stream = await client(fetch).messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: QUESTION }], stream: true })
    const events: unknown[] = []
    for await (const event of stream) {
      if (event.type === 'content_block_delta') events.push([event.type, event.index, event.delta])
      else if (event.type === 'message_start') events.push([event.type, event.message.usage])
      else if (event.type === 'message_delta') events.push([event.type, event.delta, event.usage])
      else events.push(event.type)
    }

    const usage = (output: number) => ({ input_tokens: 9, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 })
    expect(events).toEqual([
      ['message_start', usage(1)],
      'content_block_start',
      ['content_block_delta', 0, { type: 'text_delta', text: 'Let ' }],
      ['content_block_delta', 0, { type: 'text_delta', text: 'me ' }],
      ['content_block_delta', 0, { type: 'text_delta', text: 'look.' }],
      'content_block_stop',
      'content_block_start',
      ['content_block_delta', 1, { type: 'input_json_delta', partial_json: '' }],
      ['content_block_delta', 1, { type: 'input_json_delta', partial_json: '{"order_' }],
      ['content_block_delta', 1, { type: 'input_json_delta', partial_json: 'id":"42"' }],
      ['content_block_delta', 1, { type: 'input_json_delta', partial_json: '}' }],
      'content_block_stop',
      ['message_delta', { stop_reason: 'tool_use', stop_sequence: null }, usage(4)],
      'message_stop',
    ])
  })
})

describe('scriptedFetch: errors with the Anthropic SDK', () => {
  const ASK = { model: MODEL, max_tokens: 64, messages: [{ role: 'user' as const, content: 'Is order 42 refunded?' }] }

  it('rejects a call past the end of the script with ScriptExhaustedError itself; the stream helper wraps it in its AnthropicError', async () => {
    const fetch = scriptedFetch([])
    const anthropic = client(fetch, 2)
    const message =
      'scriptedFetch has no step for call #1 (POST /v1/messages, model "claude-sonnet-4-6"): the script has 0 steps. ' +
      "The call's last message was user: Is order 42 refunded?. Add a step for this call to the script, or find out why the agent made it."

    const direct = await anthropic.messages.create(ASK).catch((e: unknown) => e)
    expect(direct).toBeInstanceOf(ScriptExhaustedError)
    expect((direct as Error).message).toBe(message)
    const viaHelper = await anthropic.messages
      .stream(ASK)
      .finalMessage()
      .catch((e: unknown) => e)
    expect(viaHelper).toBeInstanceOf(Anthropic.AnthropicError)
    expect((viaHelper as Error).cause).toBeInstanceOf(ScriptExhaustedError)
    expect((viaHelper as Error).message).toBe(message.replace('call #1', 'call #2'))
    expect(fetch.requests).toHaveLength(2)
  })

  it('lets the SDK retry an overloaded 529, the retry taking the next step', async () => {
    const fetch = scriptedFetch([{ error: { status: 529, message: 'Overloaded' } }, { text: 'Refunded.' }])
    const response = await client(fetch, 1).messages.create(ASK)
    expect(response.content).toEqual([{ type: 'text', text: 'Refunded.' }])
    expect(fetch.requests.map((request) => request.call)).toEqual([1, 2])
  })

  it("answers with Anthropic's error body, so the SDK raises its own RateLimitError, and a 500 after its retries as InternalServerError", async () => {
    const fetch = scriptedFetch([
      { error: { status: 429, message: 'Number of request tokens has exceeded your per-minute rate limit.' } },
      { error: { status: 500, message: 'Internal server error' } },
      { error: { status: 500, message: 'Internal server error' } },
    ])
    const rateLimited = await client(fetch)
      .messages.create(ASK)
      .catch((e: unknown) => e)
    expect(rateLimited).toBeInstanceOf(Anthropic.RateLimitError)
    expect(rateLimited).toMatchObject({
      status: 429,
      error: {
        type: 'error',
        error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit.' },
        request_id: 'req_scripted_1',
      },
      requestID: 'req_scripted_1',
    })

    const failed = await client(fetch, 1)
      .messages.create(ASK)
      .catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(Anthropic.InternalServerError)
    expect((failed as Error).message).toBe('500 {"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_scripted_3"}')
    expect(fetch.requests).toHaveLength(3)
  })
})
