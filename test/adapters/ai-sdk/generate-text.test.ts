import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from '../../../src/entries/ai-sdk.js'
import { resetAdapterWarnings } from '../../../src/adapter-support/index.js'
import { session } from '../../../src/entries/index.js'
import { captureWarnings } from '../../helpers/warnings.js'
import { answer, generatingModel, sleep, text, toolCall, usage } from './scripted.js'
import { internals } from '../../../src/session/internals.js'

function refundTools() {
  return {
    lookup_order: tool({
      description: 'Find an order',
      inputSchema: z.object({ id: z.string() }),
      execute: async ({ id }) => {
        await sleep(20)
        return { id, amount: 19.99 }
      },
    }),
    issue_refund: tool({
      inputSchema: z.object({ id: z.string() }),
      execute: async (): Promise<{ refunded: boolean }> => {
        await sleep(5)
        throw new TypeError('payments are down')
      },
    }),
  }
}

const script = () => [
  answer([toolCall('c1', 'lookup_order', { id: '42' }), toolCall('c2', 'issue_refund', { id: '42' })], usage(120, 30, { cacheRead: 100 })),
  answer([text('The refund failed: payments are down.')], usage(200, 12)),
]

const refundAgent = (model: ReturnType<typeof generatingModel>, tools: ReturnType<typeof refundTools>) =>
  generateText({
    model: wrapLanguageModel({ model, middleware: reagentMiddleware() }),
    system: 'You refund orders.',
    prompt: 'Refund order 42',
    tools,
    stopWhen: stepCountIs(5),
  })

describe('reagentMiddleware() with generateText', () => {
  it('records each step of a tool loop as a turn, with the results the next prompt hands back', async () => {
    const s = await session('ai-sdk-generate', { save: false }, async () => (await refundAgent(generatingModel(script()), refundTools())).text)

    expect(s.output).toBe('The refund failed: payments are down.')
    const [first, second] = s.trace.turns
    expect(s.trace.turns).toHaveLength(2)
    expect(first!.llm_call).toEqual({
      messages: [
        { role: 'system', content: 'You refund orders.' },
        { role: 'user', content: 'Refund order 42' },
      ],
      response_text: null,
      tool_calls: [
        { name: 'lookup_order', arguments: { id: '42' }, call_id: 'c1', timestamp: first!.llm_call.timestamp },
        { name: 'issue_refund', arguments: { id: '42' }, call_id: 'c2', timestamp: first!.llm_call.timestamp },
      ],
      model: 'scripted-gpt',
      provider: 'mock-provider',
      tool_set: 'ts_bd4199ba4691',
      token_usage: {
        input_tokens: 120,
        output_tokens: 30,
        total_tokens: 150,
        input_tokens_details: { no_cache_tokens: 20, cache_read_tokens: 100 },
        output_tokens_details: { text_tokens: 30 },
      },
      timestamp: expect.any(Number),
      latency_ms: expect.any(Number),
      stop_reason: 'tool-calls',
    })
    // Without instrumentTools the results come from the next prompt, with the SDK's error text, each
    // timed from the response that asked for it to that prompt, as the other adapters do (lookup_order takes 20 ms).
    expect(first!.tool_results).toEqual([
      { call_id: 'c1', result: { id: '42', amount: 19.99 }, error: null, duration_ms: expect.any(Number) },
      { call_id: 'c2', result: null, error: 'payments are down', duration_ms: expect.any(Number) },
    ])
    expect(first!.tool_results[0]!.duration_ms).toBeGreaterThanOrEqual(15)
    expect(second!.llm_call).toMatchObject({
      response_text: 'The refund failed: payments are down.',
      tool_calls: [],
      token_usage: { input_tokens: 200, output_tokens: 12, total_tokens: 212 },
      stop_reason: 'stop',
    })
    expect(second!.llm_call.messages!.slice(2)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup_order', input: { id: '42' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'issue_refund', input: { id: '42' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'lookup_order', output: { type: 'json', value: { id: '42', amount: 19.99 } } },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'issue_refund', output: { type: 'error-text', value: 'payments are down' } },
        ],
      },
    ])
  })

  it('records wrapped tools exactly once, with their value or error and their duration, and the loop goes on', async () => {
    const warnings = captureWarnings()
    const s = await session(
      'ai-sdk-generate-tools',
      { save: false },
      async () => (await refundAgent(generatingModel(script()), instrumentTools(refundTools()))).text,
    )

    expect(s.output).toBe('The refund failed: payments are down.')
    const results = s.trace.turns[0]!.tool_results
    // In the order the tools finished: issue_refund fails after 5 ms, lookup_order answers after 20 ms.
    expect(results).toEqual([
      { call_id: 'c2', result: null, error: 'TypeError: payments are down', duration_ms: expect.any(Number) },
      { call_id: 'c1', result: { id: '42', amount: 19.99 }, error: null, duration_ms: expect.any(Number) },
    ])
    expect(results[0]!.duration_ms).toBeGreaterThanOrEqual(3)
    expect(results[1]!.duration_ms).toBeGreaterThanOrEqual(15)
    expect(s.trace.turns[1]!.tool_results).toEqual([])
    expect(await warnings.seen()).toEqual([])
  })

  it('records the results of the last step only when the tools are wrapped (no later prompt carries them)', async () => {
    const lastStep = [answer([toolCall('c1', 'lookup_order', { id: '42' })])]
    const run = (tools: ReturnType<typeof refundTools>) =>
      generateText({
        model: wrapLanguageModel({ model: generatingModel(lastStep), middleware: reagentMiddleware() }),
        prompt: 'Look up 42',
        tools,
        stopWhen: stepCountIs(1),
      })

    const plain = await session('ai-sdk-last-step', { save: false }, () => run(refundTools()))
    const wrapped = await session('ai-sdk-last-step-wrapped', { save: false }, () => run(instrumentTools(refundTools())))

    expect(plain.trace.turns[0]!.tool_results).toEqual([])
    expect(wrapped.trace.turns[0]!.tool_results).toEqual([{ call_id: 'c1', result: { id: '42', amount: 19.99 }, error: null, duration_ms: expect.any(Number) }])
  })

  it('records nothing outside a session and returns the same result', async () => {
    const warnings = captureWarnings()
    const result = await refundAgent(generatingModel(script()), instrumentTools(refundTools()))
    const s = await session('ai-sdk-after', { save: false }, () => undefined)

    expect(result.text).toBe('The refund failed: payments are down.')
    expect(result.steps.map((step) => step.toolResults.length)).toEqual([1, 0])
    expect(s.trace.turns).toEqual([])
    expect(await warnings.seen()).toEqual([])
  })

  it('keeps two concurrent sessions apart, even with the same call ids', async () => {
    const [a, b] = await Promise.all(
      ['a', 'b'].map((name) =>
        session(`ai-sdk-concurrent-${name}`, { save: false }, async () => {
          const model = generatingModel([answer([toolCall('c1', 'lookup_order', { id: name })]), answer([text(`done ${name}`)])], `model-${name}`)
          return (await refundAgent(model, instrumentTools(refundTools()))).text
        }),
      ),
    )

    for (const [s, name] of [
      [a!, 'a'],
      [b!, 'b'],
    ] as const) {
      expect(s.output).toBe(`done ${name}`)
      expect(s.trace.turns.map((turn) => turn.llm_call.model)).toEqual([`model-${name}`, `model-${name}`])
      expect(s.trace.turns[0]!.llm_call.tool_calls.map((call) => call.arguments)).toEqual([{ id: name }])
      expect(s.trace.turns[0]!.tool_results).toEqual([{ call_id: 'c1', result: { id: name, amount: 19.99 }, error: null, duration_ms: expect.any(Number) }])
    }
  })

  it('records a model call that fails with its error, and the caller gets the error unchanged', async () => {
    const outage = new Error('provider unavailable')
    const model = new MockLanguageModelV3({
      modelId: 'scripted-gpt',
      doGenerate: async () => {
        throw outage
      },
    })
    let caught: unknown
    const s = await session('ai-sdk-model-error', { save: false }, async () => {
      try {
        await generateText({ model: wrapLanguageModel({ model, middleware: reagentMiddleware() }), prompt: 'hi', maxRetries: 0 })
      } catch (error) {
        caught = error
      }
    })

    expect(caught).toBe(outage)
    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      messages: [{ role: 'user', content: 'hi' }],
      response_text: null,
      model: 'scripted-gpt',
      error: { name: 'Error', message: 'provider unavailable' },
    })
  })

  it('records a call not awaited inside the session when the session closes, and the answer still comes back', async () => {
    resetAdapterWarnings()
    const warnings = captureWarnings()
    let started!: () => void
    const modelCalled = new Promise<void>((resolve) => (started = resolve))
    const slowModel = new MockLanguageModelV3({
      doGenerate: async () => {
        started()
        await sleep(20)
        return answer([text('late answer')])
      },
    })
    let pending: Promise<{ text: string }> | undefined
    const s = await session('ai-sdk-closed', { save: false }, async () => {
      // Not awaited: the answer arrives after the session has closed.
      pending = generateText({ model: wrapLanguageModel({ model: slowModel, middleware: reagentMiddleware() }), prompt: 'hi' })
      await modelCalled
    })

    expect((await pending!).text).toBe('late answer')
    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: null,
      error: {
        name: 'Error',
        message: 'the session closed before this response was read to its end; await every model call (and read every stream) inside the session',
      },
    })
    expect(await warnings.seen()).toEqual([])
  })

  it('never breaks the call when recording fails: it warns once and the answer comes back', async () => {
    resetAdapterWarnings()
    const warnings = captureWarnings()
    const model = wrapLanguageModel({ model: generatingModel([answer([text('first')]), answer([text('second')])]), middleware: reagentMiddleware() })

    const s = await session('ai-sdk-broken-recorder', { save: false }, async (s) => {
      s[internals].recordModelCall = () => {
        throw new Error('the recorder is broken')
      }
      return [(await generateText({ model, prompt: 'one' })).text, (await generateText({ model, prompt: 'two' })).text]
    })

    expect(s.output).toEqual(['first', 'second'])
    const seen = await warnings.seen()
    expect(seen.map((w) => w.code)).toEqual(['REAGENT_ADAPTER'])
    expect(seen[0]!.message).toBe(
      'reagent-flow: reagent-flow/ai-sdk: could not record a model call (the recorder is broken). ' +
        'The call itself went on; further recording failures of this adapter are not reported. Please report this with the SDK version.',
    )
  })
})
