import Anthropic from '@anthropic-ai/sdk'
import { AsyncCaller } from '@langchain/core/utils/async_caller'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { markNotRetryable, responseFailingWith } from '../../src/adapter-support/index.js'

class ReplayMiss extends Error {
  override name = 'ReplayMiss'
}

/** A fetch that answers every request with `answer`, counting the requests. */
function countingFetch(answer: (stream: boolean) => Response) {
  const seen: string[] = []
  const fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as { stream?: boolean }
    seen.push(body.stream === true ? 'stream' : 'json')
    return answer(body.stream === true)
  }
  return { fetch, seen }
}

async function firstRead(stream: AsyncIterable<unknown>): Promise<unknown> {
  for await (const _event of stream) return 'an event'
  return 'the end'
}

const chat = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hi' }] }
const message = { model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] }

describe('responseFailingWith: our error through a Stainless SDK, as itself', () => {
  it('reaches an OpenAI caller as the very same object, streamed or not, after one request', async () => {
    const miss = new ReplayMiss('no recording for this request')
    const { fetch, seen } = countingFetch((stream) => responseFailingWith(miss, { stream }))
    const openai = new OpenAI({ fetch, apiKey: 'sk-test', maxRetries: 3 })

    await expect(openai.chat.completions.create(chat)).rejects.toBe(miss)
    await expect(firstRead(await openai.chat.completions.create({ ...chat, stream: true }))).rejects.toBe(miss)
    expect(seen).toEqual(['json', 'stream'])
  })

  it('reaches an Anthropic caller as the very same object, streamed or not, after one request', async () => {
    const miss = new ReplayMiss('no recording for this request')
    const { fetch, seen } = countingFetch((stream) => responseFailingWith(miss, { stream }))
    const anthropic = new Anthropic({ fetch, apiKey: 'sk-ant-test', maxRetries: 3 })

    await expect(anthropic.messages.create(message)).rejects.toBe(miss)
    await expect(firstRead(await anthropic.messages.create({ ...message, stream: true }))).rejects.toBe(miss)
    expect(seen).toEqual(['json', 'stream'])
  })

  it('is needed: an error thrown by fetch is retried, then replaced by the SDK with "Connection error."', async () => {
    const miss = new ReplayMiss('no recording for this request')
    let calls = 0
    const fetch = async (): Promise<Response> => {
      calls += 1
      throw miss
    }
    const error = await new OpenAI({ fetch, apiKey: 'sk-test', maxRetries: 1, timeout: 1000 }).chat.completions.create(chat).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError)
    expect((error as Error).message).toBe('Connection error.')
    expect(calls).toBe(2)
  })
})

describe('markNotRetryable', () => {
  it("keeps LangChain's AsyncCaller from retrying an error, as it retries any other", async () => {
    const caller = new AsyncCaller({ maxRetries: 3 })
    let calls = 0
    const failWith = (error: Error) => () => {
      calls += 1
      return Promise.reject(error)
    }
    const ours = markNotRetryable(new ReplayMiss('no recording'))
    await expect(caller.call(failWith(ours))).rejects.toBe(ours)
    expect(calls).toBe(1)
  })

  it('returns what it was given, also a frozen object or a value that is not one', () => {
    const frozen = Object.freeze(new ReplayMiss('frozen'))
    expect(markNotRetryable(frozen)).toBe(frozen)
    expect(markNotRetryable('text')).toBe('text')
    expect(markNotRetryable(null)).toBe(null)
  })
})
