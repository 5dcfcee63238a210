import { createOpenAI } from '@ai-sdk/openai'
import { generateText, streamText, wrapLanguageModel } from 'ai'
import { describe, expect, it } from 'vitest'
import { reagentMiddleware } from '../../../src/entries/ai-sdk.js'
import { SESSION_CLOSED } from '../../../src/adapter-support/index.js'
import { session } from '../../../src/entries/index.js'
import { fixtureJson, fixtureText, inOrder, startCannedServer, type CannedServer } from '../../helpers/canned-server.js'

/** The AI SDK's own OpenAI provider (chat completions), pointed at the canned server, recorded. */
function chatModel(server: CannedServer) {
  const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key' })
  return wrapLanguageModel({ model: openai.chat('gpt-4o'), middleware: reagentMiddleware() })
}

const finalAnswer = () => ({ sse: fixtureText('openai/chat/final-answer.sse') })

describe('reagentMiddleware() with the AI SDK OpenAI provider against a canned chat completions server', () => {
  it('records a streamed answer read to its end, with the provider the model names', async () => {
    const server = await startCannedServer(inOrder(finalAnswer()))
    const s = await session('ai-sdk-openai-stream', { save: false }, () => streamText({ model: chatModel(server), prompt: 'Weather in Paris?' }).text)

    expect(s.output).toBe('It is 18°C and sunny in Paris and 24°C in Rome.')
    expect(s.trace.turns.map((turn) => turn.llm_call)).toEqual([
      {
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        response_text: 'It is 18°C and sunny in Paris and 24°C in Rome.',
        tool_calls: [],
        model: 'gpt-4o-2024-08-06',
        provider: 'openai.chat',
        token_usage: null,
        timestamp: expect.any(Number),
        latency_ms: expect.any(Number),
        stop_reason: 'stop',
      },
    ])
  })

  it('records a generated answer with the same provider', async () => {
    const server = await startCannedServer(inOrder({ json: fixtureJson('openai/chat/final-answer.json') }))
    const s = await session(
      'ai-sdk-openai-generate',
      { save: false },
      async () => (await generateText({ model: chatModel(server), prompt: 'Weather in Paris?' })).text,
    )

    expect(s.output).toBe('It is 18°C and sunny in Paris.')
    expect(s.trace.turns[0]!.llm_call).toMatchObject({ response_text: s.output, model: 'gpt-4o-2024-08-06', provider: 'openai.chat' })
    expect(s.trace.turns[0]!.llm_call.error).toBeUndefined()
  })

  it('records a stream the caller leaves early (break) with what arrived, as not read to its end', async () => {
    const server = await startCannedServer(inOrder(finalAnswer()))
    const s = await session('ai-sdk-openai-break', { save: false }, async () => {
      for await (const chunk of streamText({ model: chatModel(server), prompt: 'Weather in Paris?' }).textStream) return chunk
      return undefined
    })

    expect(s.output).toBe('It is')
    // streamText stops pulling the model's stream without cancelling it: the call is still open when the session closes.
    expect(s.trace.turns[0]!.llm_call).toMatchObject({ response_text: 'It is', provider: 'openai.chat', error: { name: 'Error', message: SESSION_CLOSED } })
  })

  it('records a stream the caller aborts with what arrived and the abort', async () => {
    const server = await startCannedServer(inOrder(finalAnswer()))
    const aborting = new AbortController()
    const s = await session('ai-sdk-openai-abort', { save: false }, async () => {
      const chunks: string[] = []
      for await (const chunk of streamText({ model: chatModel(server), prompt: 'Weather in Paris?', abortSignal: aborting.signal }).textStream) {
        chunks.push(chunk)
        aborting.abort()
      }
      return chunks
    })

    expect(s.output).toEqual(['It is'])
    expect(s.trace.turns[0]!.llm_call).toMatchObject({
      response_text: 'It is',
      error: { name: 'AbortError', message: 'This operation was aborted' },
    })
  })
})
