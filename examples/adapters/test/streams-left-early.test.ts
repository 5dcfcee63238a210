// test/streams-left-early.test.ts
import OpenAI from 'openai'
import { expect } from 'vitest'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { test } from 'reagent-flow/vitest'

// In your app: instrumentOpenAI(new OpenAI()). Here a scripted model answers, offline.
const scriptedClient = () => instrumentOpenAI(new OpenAI({ apiKey: 'sk-test', fetch: scriptedFetch([{ text: 'It is 18°C and sunny in Paris.' }]) }))
const question: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }]

test('a stream left after its first words is recorded with what arrived', async ({ agentSession }) => {
  const openai = scriptedClient()
  const s = await agentSession(async () => {
    const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages: question, stream: true })
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) break // the first words are enough
  })

  const call = s.trace.turns[0]!.llm_call
  expect(call.provider).toBe('openai')
  expect(call.response_text).toBe('It ')
  expect(call.error?.message).toBe('the stream was closed by its reader before [DONE]: the response is incomplete')
})

test('a stream nobody reads is recorded when the session closes', async ({ agentSession }) => {
  const openai = scriptedClient()
  const s = await agentSession(async () => {
    await openai.chat.completions.create({ model: 'gpt-4o', messages: question, stream: true })
  })

  expect(s.trace.turns[0]!.llm_call.error?.message).toBe(
    'the session closed before this response was read to its end; await every model call (and read every stream) inside the session',
  )
})
