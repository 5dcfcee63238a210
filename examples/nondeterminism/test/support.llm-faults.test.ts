// test/support.llm-faults.test.ts
import OpenAI from 'openai'
import { expect } from 'vitest'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { scriptedFetch } from 'reagent-flow/fake'
import { test } from 'reagent-flow/vitest'

const SORRY = 'Sorry, I cannot look that up right now. Please try again in a minute.'

async function supportAgent(client: OpenAI): Promise<string> {
  try {
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Where is my order?' }] })
    return completion.choices[0]!.message.content ?? ''
  } catch (error) {
    if (error instanceof OpenAI.APIError) return SORRY // what the SDK raises once it gives up
    throw error
  }
}

// The SDK's own client, answered by a script instead of the network.
const openai = (maxRetries: number) => instrumentOpenAI(new OpenAI({ apiKey: 'sk-test', maxRetries, fetch: scriptedFetch([{ text: 'It ships today.' }]) }))
const attempts = (s: { trace: { turns: Array<{ llm_call: { error?: { name: string }; injected?: true } }> } }) =>
  s.trace.turns.map(({ llm_call }) => `${llm_call.error?.name ?? 'answered'}${llm_call.injected ? ' (injected)' : ''}`)

test('rides out a rate limit: the SDK retries, the trace shows both attempts', async ({ agentSession }) => {
  const s = await agentSession({ faults: [{ llm: true, status: 429, times: 1 }] }, () => supportAgent(openai(2)))

  expect(s.output).toBe('It ships today.')
  expect(attempts(s)).toEqual(['RateLimitError (injected)', 'answered'])
})

test('apologises when the provider is down, once the SDK has given up', async ({ agentSession }) => {
  const s = await agentSession({ faults: [{ llm: true, status: 500 }] }, () => supportAgent(openai(2)))

  expect(s.output).toBe(SORRY)
  expect(attempts(s)).toEqual(Array(3).fill('InternalServerError (injected)')) // the first attempt and 2 retries
})

test('apologises at once on a timeout', async ({ agentSession }) => {
  const started = Date.now()
  const s = await agentSession({ faults: [{ llm: true, status: 'timeout' }] }, () => supportAgent(openai(0)))

  expect(s.output).toBe(SORRY)
  expect(attempts(s)).toEqual(['APIConnectionTimeoutError (injected)'])
  expect(Date.now() - started).toBeLessThan(1000) // not the client's 10-minute timeout
})
