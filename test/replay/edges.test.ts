import OpenAI from 'openai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { session } from '../../src/entries/index.js'
import { fixtureJson, inOrder, startCannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { json, openaiClient, sse } from '../adapters/openai/helpers.js'

const ASK = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Pick a number.' }] }

describe('record and replay, the way agents break things', () => {
  it('answers concurrent calls of one request in the order they were made, as recorded', async () => {
    const dir = tempDir()
    const answers = ['one', 'two', 'three'].map((word) => ({
      json: {
        ...fixtureJson<Record<string, unknown>>('openai/chat/final-answer.json'),
        choices: [{ index: 0, message: { role: 'assistant', content: word }, finish_reason: 'stop' }],
      },
    }))
    const server = await startCannedServer(inOrder(...answers))
    const client = openaiClient(server)
    const three = () => Promise.all([1, 2, 3].map(() => client.chat.completions.create(ASK).then((c) => c.choices[0]!.message.content)))

    const recorded = await session('numbers', { traceDir: dir, replay: 'record' }, three)
    await server.close()
    const replayed = await session('numbers', { traceDir: dir, replay: 'replay' }, three)

    expect(recorded.output).toEqual(['one', 'two', 'three'])
    expect(replayed.output).toEqual(['one', 'two', 'three'])
  })

  it('keeps two concurrent sessions of different users on one client apart', async () => {
    const dir = tempDir()
    const server = await startCannedServer((request) => ({
      json: {
        ...fixtureJson<Record<string, unknown>>('openai/chat/final-answer.json'),
        choices: [{ index: 0, message: { role: 'assistant', content: `for ${String(request.headers['x-user'])}` }, finish_reason: 'stop' }],
      },
    }))
    const client = openaiClient(server)
    const ask = (user: string) => async () => (await client.chat.completions.create(ASK, { headers: { 'x-user': user } })).choices[0]!.message.content
    await Promise.all(['alice', 'bob'].map((user) => session('numbers', { traceDir: dir, replay: 'record', userId: user }, ask(user))))
    await server.close()

    const [alice, bob] = await Promise.all(['alice', 'bob'].map((user) => session('numbers', { traceDir: dir, replay: 'replay', userId: user }, ask(user))))
    expect([alice!.output, bob!.output]).toEqual(['for alice', 'for bob'])
  })

  it('replays a stream the agent left early (break) as far as it read it', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(sse('chat/final-answer.sse')))
    const client = openaiClient(server)
    const firstWords = async () => {
      const words: string[] = []
      for await (const chunk of await client.chat.completions.create({ ...ASK, stream: true })) {
        const text = chunk.choices[0]?.delta.content
        if (text) words.push(text)
        if (words.length === 2) break
      }
      return words
    }
    const recorded = await session('early', { traceDir: dir, replay: 'record' }, firstWords)
    await server.close()
    const replayed = await session('early', { traceDir: dir, replay: 'replay' }, firstWords)

    expect(replayed.output).toEqual(recorded.output)
    expect(replayed.output).toEqual(['It is', ' 18°C'])
  })

  it('never records a response the SDK retried: the replay answers at once with the one that came in the end', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder({ ...json('error-500.json', 500), headers: { 'retry-after-ms': '1' } }, json('chat/final-answer.json')))
    const client = instrumentOpenAI(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 1 }))
    const ask = async () => (await client.chat.completions.create(ASK)).choices[0]!.message.content

    await session('retried', { traceDir: dir, replay: 'record' }, ask)
    await server.close()
    const replayed = await session('retried', { traceDir: dir, replay: 'replay' }, ask)

    expect(replayed.output).toBe('It is 18°C and sunny in Paris.')
    const file = JSON.parse(readFileSync(join(dir, 'retried.recording.json'), 'utf8')) as { scopes: Array<{ steps: Array<{ response: { status: number } }> }> }
    expect(file.scopes[0]!.steps.map((step) => step.response.status)).toEqual([200])
  })

  it('replays a recorded 400 as the same APIError, without retrying it', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('error-400.json', 400)))
    const client = instrumentOpenAI(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 2 }))
    const ask = () =>
      client.chat.completions.create(ASK).then(
        () => 'answered',
        (error: Error & { status?: number }) => `${error.constructor.name} ${error.status}: ${error.message}`,
      )

    const recorded = await session('refused', { traceDir: dir, replay: 'record' }, ask)
    await server.close()
    const replayed = await session('refused', { traceDir: dir, replay: 'replay' }, ask)

    expect(replayed.output).toBe(recorded.output)
    expect(replayed.output).toMatch(/^BadRequestError 400: /)
  })
})
