import { readFileSync } from 'node:fs'
import { HumanMessage } from '@langchain/core/messages'
import { tool as langchainTool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai'
import OpenAI from 'openai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { ReagentCallbackHandler } from '../../src/entries/langchain.js'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { BudgetExceededError } from '../../src/errors/index.js'
import { scriptedFetch, scriptedLanguageModel, type Script } from '../../src/entries/fake.js'
import { scriptedChatModel } from '../../src/entries/fake-langchain.js'
import { session, traceTool, type Session } from '../../src/entries/index.js'
import { captureWarnings } from '../helpers/warnings.js'
import { tempDir } from '../helpers/temp-dir.js'

/** A model that asks for `search` on every call, `usage` tokens each. */
function loopingScript(calls: number, usage = { inputTokens: 50, outputTokens: 10 }): Script {
  return Array.from({ length: calls }, (_, i) => ({ toolCalls: [{ name: 'search', arguments: { q: `page ${i + 1}` } }], usage }))
}

const SEARCH: OpenAI.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
]

/** A chat-completions agent that never stops searching, its tool wrapped with traceTool. */
async function openaiLoop(openai: OpenAI, search: (args: { q: string }) => string): Promise<never> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Find everything.' }]
  for (;;) {
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools: SEARCH })
    const message = completion.choices[0]!.message
    messages.push(message)
    for (const call of message.tool_calls ?? []) {
      if (call.type === 'function')
        messages.push({ role: 'tool', tool_call_id: call.id, content: search(JSON.parse(call.function.arguments) as { q: string }) })
    }
  }
}

function scriptedOpenAI(script: Script): { openai: OpenAI; fetch: ReturnType<typeof scriptedFetch> } {
  const fetch = scriptedFetch(script)
  return { openai: instrumentOpenAI(new OpenAI({ fetch, apiKey: 'sk-test', maxRetries: 0 })), fetch }
}

afterEach(() => void vi.useRealTimers())

/** What the session rejected with; a session that resolves fails the test. */
function rejection(run: Promise<unknown>): Promise<Error> {
  return run.then(
    () => expect.unreachable('expected the run to be stopped'),
    (error: unknown) => error as Error,
  )
}

describe('limits: the next model or tool call after a limit throws BudgetExceededError, and the run is cancelled', () => {
  it('turns: the model call one past the limit is never made', async () => {
    const { openai, fetch } = scriptedOpenAI(loopingScript(10))
    const search = traceTool('search', ({ q }: { q: string }) => `results for ${q}`)
    const traceDir = tempDir()
    let s: Session | undefined
    const error = await rejection(
      session('looping', { traceDir, limits: { turns: 3 } }, (opened) => {
        s = opened
        return openaiLoop(openai, search)
      }),
    )

    expect(error).toBeInstanceOf(BudgetExceededError)
    expect((error as Error).message).toBe(
      'Session "looping" went past its limit of 3 turns (limits.turns: 4 model calls), so the model call was not made. Raise limits.turns, or look at the trace for why the agent kept going.',
    )
    expect(error).toMatchObject({ sessionName: 'looping', limit: 'turns', max: 3, actual: 4, stopped: { kind: 'model' } })
    expect(fetch.requests).toHaveLength(3)
    expect(s!.trace.turns).toHaveLength(3)
    expect(s!.trace.turns.map((turn) => turn.tool_results.length)).toEqual([1, 1, 1])
    const file = JSON.parse(readFileSync(s!.path!, 'utf8')) as Record<string, unknown>
    expect(file).toMatchObject({
      status: 'cancelled',
      interruption_reason: 'limits.turns of 3 turns passed (4 model calls)',
      error: { name: 'BudgetExceededError', message: (error as Error).message },
    })
  })

  it("turns: reaches the caller of the SDK's stream helper (which wraps it), and the run is still cancelled", async () => {
    const { openai, fetch } = scriptedOpenAI(loopingScript(10))
    let s: Session | undefined
    const error = await rejection(
      session('streamed', { save: false, limits: { turns: 1 } }, async (opened) => {
        s = opened
        const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Find everything.' }]
        for (;;) {
          const completion = await openai.chat.completions.stream({ model: 'gpt-4o', messages, tools: SEARCH }).finalChatCompletion()
          messages.push(completion.choices[0]!.message)
          for (const call of completion.choices[0]!.message.tool_calls ?? []) messages.push({ role: 'tool', tool_call_id: call.id, content: 'hit' })
        }
      }),
    )
    // The helper turns errors that are not its own into an OpenAIError with the same message, the original as its cause.
    expect([error.constructor.name, error.cause instanceof BudgetExceededError, error.message]).toEqual(['OpenAIError', true, (error.cause as Error).message])
    expect(fetch.requests).toHaveLength(1)
    expect([s!.status, s!.trace.interruption_reason]).toEqual(['cancelled', 'limits.turns of 1 turn passed (2 model calls)'])
  })

  it('tokens: counted from the usage the calls record; a tool called after the limit does not run', async () => {
    let searches = 0
    const search = traceTool('search', () => `hit ${++searches}`)
    const s = await session('token-hungry', { save: false, limits: { tokens: 100 } }, async (s) => {
      for (let call = 1; ; call++) {
        s.logLlmCall({ toolCalls: [{ name: 'search' }], model: 'gpt-4o', tokenUsage: { input_tokens: 50, output_tokens: 10 } })
        try {
          search()
        } catch (error) {
          return [call, error]
        }
      }
    })

    const [calls, error] = s.output as [number, BudgetExceededError]
    expect([calls, searches]).toEqual([2, 1])
    expect(error.message).toBe(
      'Session "token-hungry" went past its limit of 100 tokens (limits.tokens: 120 tokens used), so tool "search" was not run. Raise limits.tokens, or look at the trace for why the agent used so many.',
    )
    // The agent caught the stop and answered: the run is still one its limits stopped.
    expect([s.status, s.trace.interruption_reason, s.trace.error]).toEqual(['cancelled', 'limits.tokens of 100 tokens passed (120 tokens used)', null])
    expect(s.trace.turns[1]!.tool_results[0]!.error).toBe(`BudgetExceededError: ${error.message}`)
  })

  it('usd: priced with the price table, from the model and usage each call records', async () => {
    const { openai, fetch } = scriptedOpenAI(loopingScript(10, { inputTokens: 1000, outputTokens: 100 }))
    const error = await rejection(session('spender', { save: false, limits: { usd: 0.005 } }, () => openaiLoop(openai, () => 'hit')))

    // gpt-4o: $2.50 per 1M input and $10 per 1M output tokens, so $0.0035 a call.
    expect(error.message).toBe(
      'Session "spender" went past its limit of $0.005 (limits.usd: $0.007 spent), so the model call was not made. Raise limits.usd, or look at the trace for why the agent cost so much.',
    )
    expect((error as BudgetExceededError).actual).toBeCloseTo(0.007, 12)
    expect(fetch.requests).toHaveLength(2)
  })

  it('seconds: from the start of the session', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    const { openai } = scriptedOpenAI(loopingScript(10))
    const slowSearch = traceTool('search', () => {
      vi.advanceTimersByTime(1500)
      return 'hit'
    })
    let s: Session | undefined
    const error = await rejection(
      session('slow', { save: false, limits: { seconds: 2 } }, (opened) => {
        s = opened
        return openaiLoop(openai, slowSearch)
      }),
    )

    expect(error.message).toBe(
      'Session "slow" went past its limit of 2 seconds (limits.seconds: 3 seconds passed), so the model call was not made. Raise limits.seconds, or look at the trace for why the agent took so long.',
    )
    expect([s!.status, s!.trace.interruption_reason]).toEqual(['cancelled', 'limits.seconds of 2 seconds passed (3 seconds passed)'])
    expect(s!.trace.turns).toHaveLength(2)
  })

  it('stops an agent that logs its own model calls at the first call logged past the limit, which is kept', async () => {
    let s: Session | undefined
    const error = await rejection(
      session('manual', { save: false, limits: { turns: 2 } }, (opened) => {
        s = opened
        for (;;) opened.logLlmCall({ responseText: 'again', model: 'gpt-4o' })
      }),
    )

    expect(error.message).toBe(
      'Session "manual" went past its limit of 2 turns (limits.turns: 3 model calls), so the run was stopped at the model call just logged. Raise limits.turns, or look at the trace for why the agent kept going.',
    )
    expect(s!.trace.turns).toHaveLength(3)
    expect(s!.status).toBe('cancelled')
  })

  it('counts the sessions opened inside toward the same limits', async () => {
    const s = await session('orchestrator', { save: false, limits: { turns: 3 } }, async (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'delegate' }] })
      const child = await session('worker', { save: false }, (child) => {
        child.logLlmCall({ responseText: 'one' })
        child.logLlmCall({ responseText: 'two' })
        return 'worked'
      })
      expect(() => s.logLlmCall({ responseText: 'done' })).toThrow(BudgetExceededError)
      return child.status
    })
    expect([s.output, s.status, s.trace.interruption_reason]).toEqual(['completed', 'cancelled', 'limits.turns of 3 turns passed (4 model calls)'])
  })

  it('stops the AI SDK: the model call throws the error itself, never retried', async () => {
    const model = scriptedLanguageModel(loopingScript(10))
    let searches = 0
    const tools = instrumentTools({ search: tool({ inputSchema: z.object({ q: z.string() }), execute: async () => `hit ${++searches}` }) })
    const error = await rejection(
      session('ai-sdk-loop', { save: false, limits: { turns: 2 } }, () =>
        generateText({
          model: wrapLanguageModel({ model, middleware: reagentMiddleware() }),
          tools,
          prompt: 'Find everything.',
          stopWhen: stepCountIs(10),
          maxRetries: 3,
        }),
      ),
    )

    expect(error).toBeInstanceOf(BudgetExceededError)
    expect([model.requests.length, searches]).toEqual([2, 2])
  })

  it('stops a LangChain agent at its model call, through the callback handler', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const model = scriptedChatModel(loopingScript(10))
    const search = langchainTool(async ({ q }) => `results for ${q}`, { name: 'search', schema: z.object({ q: z.string() }) })
    const agent = createReactAgent({ llm: model, tools: [search] })
    let s: Session | undefined
    const error = await rejection(
      session('react-loop', { save: false, limits: { turns: 2 } }, (opened) => {
        s = opened
        return agent.invoke({ messages: [new HumanMessage('Find everything.')] }, { callbacks: [new ReagentCallbackHandler()] })
      }),
    )

    expect(error).toBeInstanceOf(BudgetExceededError)
    expect(model.requests).toHaveLength(2)
    expect(s!.trace.turns).toHaveLength(2)
    expect(s!.status).toBe('cancelled')
    errors.mockRestore()
  })

  it('warns once when a call cannot be counted: no token usage, no price', async () => {
    const warnings = captureWarnings()
    await session('uncounted', { save: false, limits: { tokens: 1000, usd: 1 } }, (s) => {
      s.logLlmCall({ responseText: 'a', model: 'my-own-model', tokenUsage: { input_tokens: 1, output_tokens: 1 } })
      s.logLlmCall({ responseText: 'b', model: 'my-own-model', tokenUsage: { input_tokens: 1, output_tokens: 1 } })
      s.logLlmCall({ responseText: 'c', model: 'gpt-4o' })
    })
    expect((await warnings.seen()).map((w) => w.message)).toEqual([
      'reagent-flow: session "uncounted": limits.usd cannot count a model call (no price for model "my-own-model"), so it counts as 0. Add the price with a price file (REAGENT_PRICES), or limit tokens instead.',
      'reagent-flow: session "uncounted": limits.tokens cannot count a model call (no token_usage), so it counts as 0. Record tokenUsage in logLlmCall, or use an adapter and a model that report usage.',
      'reagent-flow: session "uncounted": limits.usd cannot count a model call (no token_usage), so it counts as 0. Add the price with a price file (REAGENT_PRICES), or limit tokens instead.',
    ])
  })
})

describe('the limits option is checked', () => {
  const open = (limits: unknown): Promise<unknown> => session('checked', { save: false, limits } as never, () => undefined)

  it.each([
    [10, TypeError, 'session() option "limits" must be { turns?, tokens?, usd?, seconds? }, e.g. { turns: 10, usd: 0.5 }; got the number 10.'],
    [
      { steps: 5 },
      TypeError,
      'session() option "limits" has an unknown limit "steps". Valid limits: turns, tokens, usd, seconds; e.g. { turns: 10, usd: 0.5 }.',
    ],
    [{ turns: 2.5 }, RangeError, 'session() option "limits.turns" must be a whole number above 0 (model calls the run may make), got 2.5.'],
    [{ tokens: 0 }, RangeError, 'session() option "limits.tokens" must be a whole number above 0 (tokens the run may use), got 0.'],
    [{ usd: '1' }, TypeError, 'session() option "limits.usd" must be a number above 0 (US dollars the run may cost), got the string "1".'],
    [{ seconds: Number.POSITIVE_INFINITY }, RangeError, 'session() option "limits.seconds" must be a number above 0 (seconds the run may take), got Infinity.'],
  ])('rejects %j with a message naming the limit and the valid forms', async (limits, kind, message) => {
    await expect(open(limits)).rejects.toThrow(new kind(message))
  })
})
