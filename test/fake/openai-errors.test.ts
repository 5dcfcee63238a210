import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { scriptedFetch, ScriptExhaustedError, type Script } from '../../src/entries/fake.js'
import { session } from '../../src/entries/index.js'

const ASK = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Is order 42 refunded?' }] }
const EXHAUSTED =
  'scriptedFetch has no step for call #2 (POST /v1/chat/completions, model "gpt-4o"): the script has 1 step. ' +
  "The call's last message was user: Is order 42 refunded?. Add a step for this call to the script, or find out why the agent made it."

function client(script: Script, maxRetries = 0) {
  const fetch = scriptedFetch(script)
  return { fetch, openai: instrumentOpenAI(new OpenAI({ fetch, apiKey: 'sk-test', maxRetries })) }
}

describe('scriptedFetch: running out of script with the OpenAI SDK', () => {
  it('rejects the call with ScriptExhaustedError itself, never retried into a connection error, and the trace records it', async () => {
    const { fetch, openai } = client([{ text: 'Yes.' }], 2)
    let caught: unknown
    const s = await session('exhausted', { save: false }, async () => {
      await openai.chat.completions.create(ASK)
      caught = await openai.chat.completions.create(ASK).catch((error: unknown) => error)
    })

    expect(caught).toBeInstanceOf(ScriptExhaustedError)
    expect((caught as Error).message).toBe(EXHAUSTED)
    expect(caught).toMatchObject({
      name: 'ScriptExhaustedError',
      model: 'scriptedFetch',
      callNumber: 2,
      steps: 1,
      target: 'POST /v1/chat/completions, model "gpt-4o"',
    })
    expect(fetch.requests).toHaveLength(2)
    expect(s.trace.turns[1]!.llm_call.error).toMatchObject({ name: 'ScriptExhaustedError', message: EXHAUSTED })
  })

  it('makes a streamed call fail on its first read with ScriptExhaustedError itself, recorded on the turn', async () => {
    const { fetch, openai } = client([{ text: 'Yes.' }], 2)
    let caught: unknown
    const s = await session('exhausted-stream', { save: false }, async () => {
      await openai.chat.completions.create(ASK)
      const stream = await openai.chat.completions.create({ ...ASK, stream: true })
      try {
        for await (const _chunk of stream) throw new Error('no chunk expected')
      } catch (error) {
        caught = error
      }
    })

    expect(caught).toBeInstanceOf(ScriptExhaustedError)
    expect((caught as Error).message).toBe(EXHAUSTED)
    expect(fetch.requests).toHaveLength(2)
    expect(s.trace.turns[1]!.llm_call.error).toMatchObject({ name: 'ScriptExhaustedError', message: EXHAUSTED })
  })

  it("reaches the caller of the SDK's stream helper as the cause of the SDK's OpenAIError, which wraps every error that is not its own", async () => {
    const { openai } = client([], 2)
    const error = await openai.chat.completions
      .stream(ASK)
      .finalChatCompletion()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.OpenAIError)
    expect((error as Error).message).toBe((error as Error & { cause: Error }).cause.message)
    expect((error as Error).cause).toBeInstanceOf(ScriptExhaustedError)
  })
})

describe('scriptedFetch: error steps with the OpenAI SDK', () => {
  it('answers with the status and error body OpenAI sends, so the SDK raises its own RateLimitError', async () => {
    const { openai } = client([{ error: { status: 429, message: 'Rate limit reached for gpt-4o.' } }])
    const error = await openai.chat.completions.create(ASK).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.RateLimitError)
    expect(error).toMatchObject({
      status: 429,
      message: '429 Rate limit reached for gpt-4o.',
      error: { message: 'Rate limit reached for gpt-4o.', type: 'requests', param: null, code: 'rate_limit_exceeded' },
      requestID: 'req_scripted_1',
    })
  })

  it('lets the SDK retry a 429 by its own rules, the retry taking the next step', async () => {
    const { fetch, openai } = client([{ error: { status: 429, message: 'Slow down.' } }, { text: 'Refunded.' }], 1)
    const s = await session('retried', { save: false }, () => openai.chat.completions.create(ASK))

    expect(s.output!.choices[0]!.message.content).toBe('Refunded.')
    expect(fetch.requests.map((request) => request.call)).toEqual([1, 2])
    expect(s.trace.turns.map((turn) => [turn.llm_call.response_text, turn.llm_call.error])).toEqual([['Refunded.', undefined]])
  })

  it("surfaces a 500 after the SDK's retries as its own InternalServerError, recorded on the turn", async () => {
    const server = { status: 500, message: 'The server had an error while processing your request.' }
    const { fetch, openai } = client([{ error: server }, { error: server }, { text: 'never reached' }], 1)
    let caught: unknown
    const s = await session('server-error', { save: false }, async () => {
      caught = await openai.chat.completions.create(ASK).catch((e: unknown) => e)
    })

    expect(caught).toBeInstanceOf(OpenAI.InternalServerError)
    expect((caught as Error).message).toBe('500 The server had an error while processing your request.')
    expect(fetch.requests).toHaveLength(2)
    expect(fetch.remaining).toBe(1)
    expect(s.trace.turns[0]!.llm_call.error).toMatchObject({
      name: 'InternalServerError',
      message: '500 The server had an error while processing your request.',
    })
  })

  it('keeps the type and code a step gives, e.g. an insufficient_quota 429', async () => {
    const { openai } = client([{ error: { status: 429, message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' } }])
    await expect(openai.chat.completions.create(ASK)).rejects.toMatchObject({
      error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota.', param: null },
    })
  })
})
