import Anthropic from '@anthropic-ai/sdk'
import OpenAI, { APIConnectionTimeoutError, InternalServerError } from 'openai'
import { describe, expect, it } from 'vitest'
import { repeat, session, type Session } from '../../src/entries/index.js'
import { inOrder, startCannedServer } from '../helpers/canned-server.js'
import { instrumentedClient, MODEL } from '../adapters/anthropic/helpers.js'
import { json } from '../adapters/openai/helpers.js'
import { runChatAgent } from '../adapters/openai/weather-agent.js'
import { instrumentOpenAI } from '../../src/entries/openai.js'

const QUESTION = { role: 'user' as const, content: 'What is the weather in Paris?' }

function client(url: string, maxRetries: number): OpenAI {
  return instrumentOpenAI(new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test-key', maxRetries, timeout: 60_000 }))
}

/** What each turn's LLM call says about its failure: the error class, and whether it was injected. */
function failures(s: Session): Array<[string | null, boolean]> {
  return s.trace.turns.map((turn) => [turn.llm_call.error?.name ?? null, turn.llm_call.injected === true])
}

/** The error a promise rejects with. */
function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (error: unknown) => error,
  )
}

/** How long the SDK waited between turn `at`'s failed attempt and the next attempt, as the trace timed them. */
function retryWaitMs(s: Session, at: number): number {
  const failed = s.trace.turns[at]!.llm_call
  return (s.trace.turns[at + 1]!.llm_call.timestamp - failed.timestamp) * 1000 - failed.latency_ms!
}

describe('LLM faults through an instrumented OpenAI client', () => {
  it('answers a 429 once: the SDK retries at once (retry-after-ms), the run completes, the trace shows both attempts', async () => {
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const openai = client(server.url, 2)

    const s = await session('rate-limited', { save: false, faults: [{ llm: true, status: 429, times: 1 }] }, () => runChatAgent(openai, 'Weather in Paris?'))

    // The SDK's own backoff without a retry-after is 375 ms at least: this retry was told to wait a millisecond.
    expect(retryWaitMs(s, 0)).toBeLessThan(300)
    expect(s.status).toBe('completed')
    expect(server.requests).toHaveLength(2)
    expect(failures(s)).toEqual([
      ['RateLimitError', true],
      [null, false],
      [null, false],
    ])
    const attempt = s.trace.turns[0]!.llm_call
    expect(attempt.error!.message).toBe("429 Rate limit reached for gpt-4o: an injected fault (the session's faults option).")
    expect([attempt.model, attempt.provider, attempt.messages]).toEqual(['gpt-4o', 'openai', s.trace.turns[1]!.llm_call.messages])
    expect(s.trace.turns[1]!.llm_call.tool_calls.map((call) => call.name)).toEqual(['get_weather'])
  })

  it('fails every attempt with a 500: after its retries the agent sees InternalServerError, each attempt a turn', async () => {
    const server = await startCannedServer(inOrder())
    const openai = client(server.url, 2)

    const s = await session('outage', { save: false, faults: [{ llm: true, status: 500 }] }, () =>
      rejection(openai.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] })),
    )

    expect(s.output).toBeInstanceOf(InternalServerError)
    expect(s.output).toMatchObject({
      status: 500,
      error: {
        message: "The server had an error while processing your request for gpt-4o: an injected fault (the session's faults option).",
        type: 'server_error',
        code: null,
      },
    })
    expect(server.requests).toHaveLength(0)
    expect(failures(s)).toEqual([
      ['InternalServerError', true],
      ['InternalServerError', true],
      ['InternalServerError', true],
    ])
  })

  it("times out at once with the SDK's APIConnectionTimeoutError, not after the client's timeout", async () => {
    const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const openai = client(server.url, 0)
    const started = performance.now()

    const s = await session('timeout', { save: false, faults: [{ llm: true, status: 'timeout' }] }, () =>
      rejection(openai.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] })),
    )

    expect(performance.now() - started).toBeLessThan(1000)
    expect(s.output).toBeInstanceOf(APIConnectionTimeoutError)
    expect((s.output as Error).message).toBe('Request timed out.')
    expect(failures(s)).toEqual([['APIConnectionTimeoutError', true]])
    expect(server.requests).toHaveLength(0)
  })

  it('lets `after` calls through, fails `times` of them, and counts only the calls of `model`', async () => {
    const server = await startCannedServer(() => json('chat/final-answer.json'))
    const openai = client(server.url, 0)
    const ask = (model: string) =>
      openai.chat.completions.create({ model, messages: [QUESTION] }).then(
        () => `${model} ok`,
        (error: Error) => `${model} ${error.constructor.name}`,
      )
    const faults = [{ llm: true as const, status: 429 as const, after: 1, times: 2, model: 'gpt-4o-mini' }]

    const s = await session('windows', { save: false, faults }, async () => {
      const outcomes: string[] = []
      for (const model of ['gpt-4o-mini', 'gpt-4o', 'gpt-4o-mini', 'gpt-4o', 'gpt-4o-mini', 'gpt-4o-mini']) outcomes.push(await ask(model))
      return outcomes
    })

    expect(s.output).toEqual(['gpt-4o-mini ok', 'gpt-4o ok', 'gpt-4o-mini RateLimitError', 'gpt-4o ok', 'gpt-4o-mini RateLimitError', 'gpt-4o-mini ok'])
    expect(server.requests).toHaveLength(4)
    expect(s.trace.turns.map((turn) => turn.llm_call.injected === true)).toEqual([false, false, true, false, true, false])
  })

  it('shares the plan with a session opened inside, and leaves calls outside any session alone', async () => {
    const server = await startCannedServer(() => json('chat/final-answer.json'))
    const openai = client(server.url, 0)
    const ask = () =>
      openai.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] }).then(
        () => 'ok',
        (error: Error) => error.constructor.name,
      )

    const outer = await session('outer', { save: false, faults: [{ llm: true, status: 429, after: 1, times: 1 }] }, async () => {
      const first = await ask()
      const inner = await session('inner', { save: false }, ask)
      return [first, inner.output, await ask()]
    })

    expect(outer.output).toEqual(['ok', 'RateLimitError', 'ok'])
    expect(await ask()).toBe('ok')
    expect(server.requests).toHaveLength(3)
  })
})

describe('LLM faults in repeated runs', () => {
  it('gives each run of repeat() its own count: every run is rate-limited once, then goes through', async () => {
    const server = await startCannedServer(() => json('chat/final-answer.json'))
    const openai = client(server.url, 1)

    const runs = await repeat(3, 'repeated', { save: false, faults: [{ llm: true, status: 429, times: 1 }] }, async () => {
      const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] })
      return completion.choices[0]!.message.content
    })

    expect(runs.runs.map((run) => failures(run))).toEqual(
      Array(3).fill([
        ['RateLimitError', true],
        [null, false],
      ]),
    )
    expect(runs.passRate(() => true)).toBe(1)
    expect(server.requests).toHaveLength(3)
  })
})

describe('LLM faults through an instrumented Anthropic client', () => {
  it("answers with Anthropic's error body: a 429 retried through, a 500 seen as InternalServerError", async () => {
    const server = await startCannedServer(() => ({
      json: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: MODEL,
        content: [{ type: 'text', text: 'Sunny.' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 2 },
      },
    }))
    const anthropic = instrumentedClient(server, { maxRetries: 1 })
    const ask = () => anthropic.messages.create({ model: MODEL, max_tokens: 100, messages: [QUESTION] })

    const s = await session(
      'anthropic',
      {
        save: false,
        faults: [
          { llm: true, status: 429, times: 1 },
          { llm: true, status: 500, after: 2 },
        ],
      },
      async () => {
        const answer = await ask()
        return [answer.content, await rejection(ask())]
      },
    )

    const [content, error] = s.output as [unknown, InstanceType<typeof Anthropic.APIError>]
    expect(content).toEqual([{ type: 'text', text: 'Sunny.' }])
    expect(error).toBeInstanceOf(Anthropic.InternalServerError)
    expect(error.error).toEqual({
      type: 'error',
      error: {
        type: 'api_error',
        message: `The server had an error while processing your request for ${MODEL}: an injected fault (the session's faults option).`,
      },
    })
    expect(failures(s)).toEqual([
      ['RateLimitError', true],
      [null, false],
      ['InternalServerError', true],
      ['InternalServerError', true],
    ])
    expect(server.requests).toHaveLength(1)
  })

  it('gives a 529 as OverloadedError and a 503 as ServiceUnavailableError, the classes the client maps them to', async () => {
    const server = await startCannedServer(inOrder())
    const anthropic = instrumentedClient(server, { maxRetries: 0 })
    const ask = () => rejection(anthropic.messages.create({ model: MODEL, max_tokens: 100, messages: [QUESTION] }))

    const s = await session(
      'anthropic-load',
      {
        save: false,
        faults: [
          { llm: true, status: 529, times: 1 },
          { llm: true, status: 503, after: 1 },
        ],
      },
      async () => [await ask(), await ask()],
    )

    const [overloaded, unavailable] = s.output as [InstanceType<typeof Anthropic.APIError>, InstanceType<typeof Anthropic.APIError>]
    expect([overloaded, unavailable].map((error) => [error.constructor.name, error.status])).toEqual([
      ['OverloadedError', 529],
      ['ServiceUnavailableError', 503],
    ])
    expect(overloaded.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } })
    expect(failures(s)).toEqual([
      ['OverloadedError', true],
      ['ServiceUnavailableError', true],
    ])
  })
})
