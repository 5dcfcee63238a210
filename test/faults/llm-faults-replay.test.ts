import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateText, wrapLanguageModel } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { scriptedFetch, scriptedLanguageModel } from '../../src/entries/fake.js'
import { session, type Fault, type Session } from '../../src/entries/index.js'
import { inOrder, startCannedServer } from '../helpers/canned-server.js'
import { watchSockets } from '../helpers/sockets.js'
import { tempDir } from '../helpers/temp-dir.js'
import { json } from '../adapters/openai/helpers.js'
import { runChatAgent } from '../adapters/openai/weather-agent.js'

const RATE_LIMITED_ONCE: Fault[] = [{ llm: true, status: 429, times: 1 }]

function client(url: string, fetch?: typeof globalThis.fetch): OpenAI {
  return instrumentOpenAI(new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test-key', maxRetries: 2, ...(fetch === undefined ? {} : { fetch }) }))
}

function failures(s: Session): Array<[string | null, boolean, boolean]> {
  return s.trace.turns.map((turn) => [turn.llm_call.error?.name ?? null, turn.llm_call.injected === true, turn.llm_call.replayed === true])
}

const recordingText = (dir: string, name: string) => readFileSync(join(dir, `${name}.recording.json`), 'utf8')

describe('LLM faults with recorded, replayed and scripted models', () => {
  it('never writes a fault into a recording: recorded with faults, the file is byte for byte the one recorded without', async () => {
    const run = async (faults: Fault[] | undefined) => {
      const dir = tempDir()
      const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
      const s = await session('weather', { traceDir: dir, replay: 'record', ...(faults === undefined ? {} : { faults }) }, () =>
        runChatAgent(client(server.url), 'Weather in Paris?'),
      )
      return { s, text: recordingText(dir, 'weather') }
    }
    const clean = await run(undefined)
    const faulted = await run([{ llm: true, status: 500, times: 2 }])

    expect(failures(faulted.s)).toEqual([
      ['InternalServerError', true, false],
      ['InternalServerError', true, false],
      [null, false, false],
      [null, false, false],
    ])
    expect(faulted.text).toBe(clean.text)
    expect(faulted.text).not.toContain('injected')
  })

  it('answers a fault before the recording in replay: the retry is replayed, and the recording is left as it was', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const recorded = await session('weather', { traceDir: dir, replay: 'record' }, () => runChatAgent(client(server.url), 'Weather in Paris?'))
    await server.close()
    const before = recordingText(dir, 'weather')
    const sockets = watchSockets()

    const replayed = await session('weather', { traceDir: dir, replay: 'replay', faults: [{ llm: true, status: 429, after: 1, times: 1 }] }, () =>
      runChatAgent(client(server.url), 'Weather in Paris?'),
    )

    expect(sockets.opened()).toBe(0)
    expect(replayed.status).toBe('completed')
    expect(replayed.output).toBe(recorded.output)
    expect(failures(replayed)).toEqual([
      [null, false, true],
      ['RateLimitError', true, false],
      [null, false, true],
    ])
    expect(recordingText(dir, 'weather')).toBe(before)
  })

  it('answers before a scripted fetch: the script is not consumed by the failed attempt', async () => {
    const fetch = scriptedFetch([{ text: 'Sunny in Paris.' }])

    const s = await session('scripted', { save: false, faults: RATE_LIMITED_ONCE }, async () => {
      const completion = await client('http://scripted.invalid', fetch).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Weather?' }],
      })
      return completion.choices[0]!.message.content
    })

    expect(s.output).toBe('Sunny in Paris.')
    expect(fetch.remaining).toBe(0)
    expect(failures(s)).toEqual([
      ['RateLimitError', true, false],
      [null, false, false],
    ])
  })

  it('answers before an AI SDK recording in replay, and the AI SDK retries into the recording', async () => {
    const dir = tempDir()
    const ask = () =>
      generateText({
        model: wrapLanguageModel({ model: scriptedLanguageModel([{ text: 'Sunny.' }]), middleware: reagentMiddleware() }),
        prompt: 'Weather?',
        maxRetries: 1,
      }).then((result) => result.text)
    await session('ai-sdk', { traceDir: dir, replay: 'record' }, ask)
    const before = recordingText(dir, 'ai-sdk')

    const replayed = await session('ai-sdk', { traceDir: dir, replay: 'replay', faults: RATE_LIMITED_ONCE }, ask)

    expect(replayed.output).toBe('Sunny.')
    expect(failures(replayed)).toEqual([
      ['AI_APICallError', true, false],
      [null, false, true],
    ])
    expect(recordingText(dir, 'ai-sdk')).toBe(before)
  })
})
