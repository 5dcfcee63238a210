import { APICallError, generateText, RetryError, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { scriptedLanguageModel, type ScriptedLanguageModel } from '../../src/entries/fake.js'
import { session, type Session } from '../../src/entries/index.js'
import { FINAL_ANSWER, issueRefund, lookupOrder, QUESTION, refundScript } from '../fake/refund-kit.js'

const TOOLS = instrumentTools({
  lookup_order: tool({ description: 'Look an order up by id.', inputSchema: z.object({ order_id: z.string() }), execute: async (args) => lookupOrder(args) }),
  issue_refund: tool({
    description: 'Refund an order.',
    inputSchema: z.object({ order_id: z.string(), amount: z.number() }),
    execute: async (args) => issueRefund(args),
  }),
})

const recorded = (model: ScriptedLanguageModel) => wrapLanguageModel({ model, middleware: reagentMiddleware() })

async function refundAgent(model: ScriptedLanguageModel, { stream = false, maxRetries = 2 } = {}): Promise<string> {
  const params = { model: recorded(model), tools: TOOLS, system: 'You refund orders.', prompt: QUESTION, stopWhen: stepCountIs(5), maxRetries }
  if (!stream) return (await generateText(params)).text
  const result = streamText({ ...params, onError: () => undefined })
  let streamed = ''
  for await (const text of result.textStream) streamed += text
  return streamed
}

function failures(s: Session): Array<[string | null, boolean]> {
  return s.trace.turns.map((turn) => [turn.llm_call.error?.name ?? null, turn.llm_call.injected === true])
}

describe('LLM faults with the AI SDK (reagentMiddleware)', () => {
  it.each([false, true])('fails a call with a retryable APICallError: generateText/streamText retries it at once (streamed: %s)', async (stream) => {
    const model = scriptedLanguageModel(refundScript())

    const s = await session('ai-sdk-429', { save: false, faults: [{ llm: true, status: 429, after: 1, times: 1 }] }, () => refundAgent(model, { stream }))

    // The AI SDK's own first backoff is 2 s: the retry waited what retry-after-ms said.
    const failed = s.trace.turns[1]!.llm_call
    expect((s.trace.turns[2]!.llm_call.timestamp - failed.timestamp) * 1000 - failed.latency_ms!).toBeLessThan(1000)
    expect(s.output).toBe(stream ? `Refunding now.${FINAL_ANSWER}` : FINAL_ANSWER)
    expect(model.remaining).toBe(0)
    expect(failures(s)).toEqual([
      [null, false],
      ['AI_APICallError', true],
      [null, false],
      [null, false],
    ])
    expect(s.trace.turns[1]!.llm_call.error!.message).toBe("Rate limit reached for scripted-model: an injected fault (the session's faults option).")
    expect(s.trace.turns[1]!.llm_call.messages).toEqual(s.trace.turns[2]!.llm_call.messages)
  })

  it('fails every attempt with a 500: the agent sees the RetryError of maxRetries + 1 APICallErrors', async () => {
    const model = scriptedLanguageModel(refundScript())

    const s = await session('ai-sdk-500', { save: false, faults: [{ llm: true, status: 500 }] }, () => refundAgent(model).catch((error: unknown) => error))

    const error = s.output as RetryError
    expect(RetryError.isInstance(error)).toBe(true)
    expect(error.reason).toBe('maxRetriesExceeded')
    expect(error.errors.map((e) => [APICallError.isInstance(e), (e as APICallError).statusCode, (e as APICallError).isRetryable])).toEqual(
      Array(3).fill([true, 500, true]),
    )
    expect((error.lastError as APICallError).data).toEqual({
      error: {
        message: "The server had an error while processing your request for scripted-model: an injected fault (the session's faults option).",
        type: 'server_error',
        param: null,
        code: null,
      },
    })
    expect(model.requests).toHaveLength(0)
    expect(failures(s)).toEqual(Array(3).fill(['AI_APICallError', true]))
  })

  it('times out at once with the TimeoutError of an aborted call, which the AI SDK does not retry', async () => {
    const model = scriptedLanguageModel(refundScript())
    const started = performance.now()

    const s = await session('ai-sdk-timeout', { save: false, faults: [{ llm: true, status: 'timeout' }] }, () =>
      refundAgent(model).catch((error: unknown) => error),
    )

    expect(performance.now() - started).toBeLessThan(1000)
    expect(s.output).toBeInstanceOf(DOMException)
    expect(s.output).toMatchObject({
      name: 'TimeoutError',
      message: "The operation was aborted due to timeout: Request timed out for scripted-model: an injected fault (the session's faults option).",
    })
    expect(failures(s)).toEqual([['TimeoutError', true]])
  })
})
