import { APICallError, generateText, RetryError, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { scriptedLanguageModel, ScriptExhaustedError, type Script, type ScriptedLanguageModel } from '../../src/entries/fake.js'
import { session } from '../../src/entries/index.js'
import { FINAL_ANSWER, expectRefundRun, issueRefund, lookupOrder, QUESTION, refundScript, refundConversation, REFUND_TOOLS } from './refund-kit.js'

const TOOLS = instrumentTools({
  lookup_order: tool({ description: 'Look an order up by id.', inputSchema: z.object({ order_id: z.string() }), execute: async (args) => lookupOrder(args) }),
  issue_refund: tool({
    description: 'Refund an order.',
    inputSchema: z.object({ order_id: z.string(), amount: z.number() }),
    execute: async (args) => issueRefund(args),
  }),
})

const recorded = (model: ScriptedLanguageModel) => wrapLanguageModel({ model, middleware: reagentMiddleware() })

async function refundAgent(model: ScriptedLanguageModel, stream: boolean): Promise<string> {
  const params = { model: recorded(model), tools: TOOLS, system: 'You refund orders.', prompt: QUESTION, stopWhen: stepCountIs(5) }
  if (!stream) return (await generateText(params)).text
  const result = streamText(params)
  let streamed = ''
  for await (const text of result.textStream) streamed += text
  return streamed
}

describe('scriptedLanguageModel: the AI SDK', () => {
  it.each([false, true])('drives a multi-step tool loop with stopWhen (streamed: %s), recorded by reagentMiddleware as a real one', async (stream) => {
    const model = scriptedLanguageModel(refundScript())
    const s = await session('ai-sdk-refund', { save: false }, () => refundAgent(model, stream))

    // A text stream carries the text of every step; generateText's text is the last step's.
    expect(s.output).toBe(stream ? `Refunding now.${FINAL_ANSWER}` : FINAL_ANSWER)
    expectRefundRun(s.trace, { idPrefix: 'call_', model: 'scripted-model' })
    expect(s.trace.turns[1]!.llm_call.token_usage).toEqual({
      input_tokens: 80,
      output_tokens: 20,
      total_tokens: 100,
      input_tokens_details: { no_cache_tokens: 80, cache_read_tokens: 0 },
      output_tokens_details: { text_tokens: 20, reasoning_tokens: 0 },
    })
    expect(model.remaining).toBe(0)
    expect(model.requests.map((request) => [request.api, request.model, request.stream])).toEqual(Array(3).fill(['language-model', 'scripted-model', stream]))
    expect(model.requests[2]!.messages).toEqual(refundConversation('call_', 'You refund orders.'))
    expect(model.requests[0]!.tools.map((t) => [t.name, t.description])).toEqual(REFUND_TOOLS)
  })

  it('streams the parts a provider does: stream-start, metadata, text and tool-input deltas, the tool call, finish with V3 usage', async () => {
    const model = scriptedLanguageModel(
      [{ text: 'Let me look.', toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' }, id: 'c1' }], usage: { inputTokens: 9, outputTokens: 4 } }],
      { modelId: 'gpt-4o' },
    )
    const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: QUESTION }] }] })
    const parts: unknown[] = []
    for await (const part of stream) parts.push(part.type === 'response-metadata' ? { ...part, timestamp: expect.any(Date) } : part)

    expect(parts).toEqual([
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'scripted-1', modelId: 'gpt-4o', timestamp: expect.any(Date) },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'Let ' },
      { type: 'text-delta', id: 'text-1', delta: 'me ' },
      { type: 'text-delta', id: 'text-1', delta: 'look.' },
      { type: 'text-end', id: 'text-1' },
      { type: 'tool-input-start', id: 'c1', toolName: 'lookup_order' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"order_' },
      { type: 'tool-input-delta', id: 'c1', delta: 'id":"42"' },
      { type: 'tool-input-delta', id: 'c1', delta: '}' },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup_order', input: '{"order_id":"42"}' },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: { inputTokens: { total: 9, noCache: 9, cacheRead: 0, cacheWrite: undefined }, outputTokens: { total: 4, text: 4, reasoning: 0 } },
      },
    ])
    expect(model.provider).toBe('scripted')
    expect(model.specificationVersion).toBe('v3')
  })
})

describe('scriptedLanguageModel: errors', () => {
  const ask = (model: ScriptedLanguageModel, maxRetries = 0) => generateText({ model: recorded(model), prompt: 'Is order 42 refunded?', maxRetries })
  const exhausted = (call: number, api: string) =>
    `scriptedLanguageModel "scripted-model" has no step for call #${call} (${api}): the script has 0 steps. ` +
    "The call's last message was user: Is order 42 refunded?. Add a step for this call to the script, or find out why the agent made it."

  it('rejects generateText with ScriptExhaustedError itself, recorded on the turn', async () => {
    let caught: unknown
    const s = await session('exhausted', { save: false }, async () => {
      caught = await ask(scriptedLanguageModel([]), 2).catch((e: unknown) => e)
    })
    expect(caught).toBeInstanceOf(ScriptExhaustedError)
    expect((caught as Error).message).toBe(exhausted(1, 'doGenerate'))
    expect(s.trace.turns[0]!.llm_call.error).toMatchObject({ name: 'ScriptExhaustedError', message: exhausted(1, 'doGenerate') })
  })

  it("hands ScriptExhaustedError itself to streamText's onError and error part, as any provider error", async () => {
    const errors: unknown[] = []
    const result = streamText({ model: recorded(scriptedLanguageModel([])), prompt: 'Is order 42 refunded?', onError: ({ error }) => void errors.push(error) })
    const parts: unknown[] = []
    for await (const part of result.fullStream) if (part.type === 'error') parts.push(part.error)

    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(ScriptExhaustedError)
    expect((errors[0] as Error).message).toBe(exhausted(1, 'doStream'))
    expect(parts).toEqual(errors)
  })

  it("throws the AI SDK's own APICallError for an error step, which generateText retries by its rules", async () => {
    const script: Script = [{ error: { status: 429, message: 'Rate limit reached.' } }, { text: 'Refunded.' }]
    const model = scriptedLanguageModel(script)
    expect((await ask(model, 1)).text).toBe('Refunded.')
    expect(model.requests).toHaveLength(2)

    const error = await ask(scriptedLanguageModel([{ error: { status: 400, message: 'Bad tool schema.' } }]), 2).catch((e: unknown) => e)
    expect(APICallError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({
      message: 'Bad tool schema.',
      statusCode: 400,
      isRetryable: false,
      responseHeaders: { 'retry-after-ms': '1', 'retry-after': '0' },
    })
  })

  it("surfaces a 500 after the SDK's retries as its RetryError, holding the APICallErrors", async () => {
    const down = { error: { status: 500, message: 'The server had an error.' } }
    const model = scriptedLanguageModel([down, down])
    const error = await ask(model, 1).catch((e: unknown) => e)

    expect(RetryError.isInstance(error)).toBe(true)
    expect((error as Error).message).toBe('Failed after 2 attempts. Last error: The server had an error.')
    expect((error as RetryError).errors.map((e) => (e as APICallError).statusCode)).toEqual([500, 500])
    expect(model.requests).toHaveLength(2)
  })
})
