import { HumanMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentLangChain } from '../../src/entries/langchain.js'
import { scriptedFetch, ScriptExhaustedError } from '../../src/entries/fake.js'
import { ScriptedApiError, scriptedChatModel, ScriptedChatModel } from '../../src/entries/fake-langchain.js'
import { session } from '../../src/entries/index.js'
import { FINAL_ANSWER, expectRefundRun, issueRefund, lookupOrder, ORDER, QUESTION, refundScript, refundConversation, REFUND_TOOLS } from './refund-kit.js'

instrumentLangChain()

const TOOLS = [
  tool(async (args) => lookupOrder(args), { name: 'lookup_order', description: 'Look an order up by id.', schema: z.object({ order_id: z.string() }) }),
  tool(async (args) => issueRefund(args), {
    name: 'issue_refund',
    description: 'Refund an order.',
    schema: z.object({ order_id: z.string(), amount: z.number() }),
  }),
]

type Llm = Parameters<typeof createReactAgent>[0]['llm']

/** createReactAgent's answer, by invoke, or streamed message by message (which makes the model stream). */
async function reactAgent(llm: Llm, stream: boolean): Promise<string> {
  const agent = createReactAgent({ llm, tools: TOOLS })
  const input = { messages: [new HumanMessage(QUESTION)] }
  if (!stream) return (await agent.invoke(input)).messages.at(-1)!.text
  const streamed = await agent.stream(input, { streamMode: 'messages' })
  let last = ''
  for await (const [chunk, metadata] of streamed) if (metadata.langgraph_node === 'agent') last = chunk.text === '' ? last : `${last}${chunk.text}`
  return last.slice(last.indexOf('Done:'))
}

describe('scriptedChatModel: a LangChain chat model', () => {
  it.each([false, true])('drives createReactAgent (streamed: %s), recorded by the LangChain adapter as a real model', async (stream) => {
    const model = scriptedChatModel(refundScript())
    const s = await session('react-refund', { save: false }, () => reactAgent(model, stream))

    expect(s.output).toBe(FINAL_ANSWER)
    expectRefundRun(s.trace, { idPrefix: 'call_', model: 'scripted-chat-model' })
    expect(s.trace.turns[0]!.llm_call.token_usage).toEqual({
      input_tokens: 50,
      output_tokens: 10,
      total_tokens: 60,
      input_token_details: { cache_read: 0 },
      output_token_details: { reasoning: 0 },
    })
    expect(s.trace.turns.map((turn) => turn.llm_call['stop_reason'])).toEqual(['tool_calls', 'tool_calls', 'stop'])
    expect(model.remaining).toBe(0)
    expect(model.requests.map((request) => [request.api, request.stream])).toEqual(Array(3).fill(['chat-model', stream]))
    expect(model.requests[2]!.messages).toEqual(refundConversation('call_'))
    expect(model.requests[0]!.tools.map((t) => [t.name, t.description])).toEqual(REFUND_TOOLS)
  })

  it('streams text chunks, then tool_call_chunks keyed by index, then usage_metadata, which merge into one answer', async () => {
    const model = new ScriptedChatModel(
      [{ text: 'Let me look.', toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' }, id: 'c1' }], usage: { inputTokens: 9, outputTokens: 4 } }],
      { model: 'gpt-4o' },
    )
    const chunks = []
    for await (const chunk of await model.stream(QUESTION)) chunks.push(chunk)

    expect(chunks.map((chunk) => [chunk.text, chunk.tool_call_chunks])).toEqual([
      ['Let ', []],
      ['me ', []],
      ['look.', []],
      ['', [{ type: 'tool_call_chunk', index: 0, id: 'c1', name: 'lookup_order', args: '' }]],
      ['', [{ type: 'tool_call_chunk', index: 0, args: '{"order_' }]],
      ['', [{ type: 'tool_call_chunk', index: 0, args: 'id":"42"' }]],
      ['', [{ type: 'tool_call_chunk', index: 0, args: '}' }]],
      ['', []],
    ])
    const whole = chunks.reduce((sum, chunk) => sum.concat(chunk))
    expect(whole.text).toBe('Let me look.')
    expect(whole.tool_calls).toEqual([{ type: 'tool_call', id: 'c1', name: 'lookup_order', args: { order_id: '42' } }])
    expect(whole.usage_metadata).toEqual({
      input_tokens: 9,
      output_tokens: 4,
      total_tokens: 13,
      input_token_details: { cache_read: 0 },
      output_token_details: { reasoning: 0 },
    })
    expect(whole.response_metadata).toMatchObject({ model_name: 'gpt-4o', finish_reason: 'tool_calls' })
  })

  it.each([
    [false, 'invoke'],
    [true, 'stream'],
  ])('rejects the agent with ScriptExhaustedError itself when the script runs out (streamed: %s), never retried', async (stream, api) => {
    const model = scriptedChatModel([{ toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] }])
    const error = await reactAgent(model, stream).catch((e: unknown) => e)

    expect(error).toBeInstanceOf(ScriptExhaustedError)
    expect((error as Error).message).toBe(
      `scriptedChatModel "scripted-chat-model" has no step for call #2 (${api}): the script has 1 step. ` +
        `The call's last message was tool: ${JSON.stringify(ORDER)}. Add a step for this call to the script, or find out why the agent made it.`,
    )
    expect(model.requests).toHaveLength(2)
  })

  // LangChain waits a second or two before each retry, whatever the retry-after: these two run side by side.
  it.concurrent("lets LangChain's own retry rules run an error step: a 429 is retried, the retry taking the next step", async () => {
    const model = scriptedChatModel([{ error: { status: 429, message: 'Rate limit reached.' } }, { text: 'Refunded.' }], { maxRetries: 1 })
    expect((await model.invoke(QUESTION)).text).toBe('Refunded.')
    expect(model.requests).toHaveLength(2)
  })

  it.concurrent('surfaces a 500 after the retries LangChain makes', async () => {
    const down = { error: { status: 500, message: 'The server had an error.' } }
    const model = scriptedChatModel([down, down, { text: 'never reached' }], { maxRetries: 1 })
    const error = await model.invoke(QUESTION).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ScriptedApiError)
    expect(error).toMatchObject({
      message: '500 The server had an error.',
      status: 500,
      error: { message: 'The server had an error.', type: undefined, code: undefined },
    })
    expect(model.requests).toHaveLength(2)
  })

  it('gives up on a 400 at once, as LangChain does for a bad request', async () => {
    const model = scriptedChatModel([{ error: { status: 400, message: 'Invalid tool schema.' } }, { text: 'never reached' }], { maxRetries: 3 })
    await expect(model.invoke(QUESTION)).rejects.toThrow('400 Invalid tool schema.')
    expect(model.requests).toHaveLength(1)
  })
})

describe('scriptedFetch: ChatOpenAI from @langchain/openai', () => {
  // Streamed as LangGraph streams, not with `streaming: true`: that makes ChatOpenAI count the prompt's tokens with
  // tiktoken, whose encoding it downloads from tiktoken.pages.dev, which an offline test never reaches.
  it.each([false, true])('drives createReactAgent over ChatOpenAI (streamed: %s), recorded by the LangChain adapter', async (stream) => {
    const fetch = scriptedFetch(refundScript())
    const llm = new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test', configuration: { fetch } })
    const s = await session('chat-openai-refund', { save: false }, () => reactAgent(llm, stream))

    expect(s.output).toBe(FINAL_ANSWER)
    expectRefundRun(s.trace, { idPrefix: 'call_', model: 'gpt-4o-mini' })
    expect(fetch.requests.map((request) => [request.api, request.stream])).toEqual(Array(3).fill(['chat.completions', stream]))
  })

  it("rejects with ScriptExhaustedError itself, which LangChain's retries leave alone", async () => {
    const fetch = scriptedFetch([])
    const llm = new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test', maxRetries: 6, configuration: { fetch } })
    const error = await reactAgent(llm, false).catch((e: unknown) => e)

    expect(error).toBeInstanceOf(ScriptExhaustedError)
    expect((error as Error).message).toBe(
      'scriptedFetch has no step for call #1 (POST /v1/chat/completions, model "gpt-4o-mini"): the script has 0 steps. ' +
        "The call's last message was user: Refund order 42, please.. Add a step for this call to the script, or find out why the agent made it.",
    )
    expect(fetch.requests).toHaveLength(1)
  })
})
