import type OpenAI from 'openai'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { session, traceTool } from '../../src/entries/index.js'
import { sortKeys } from '../../src/trace/serialize.js'
import { inOrder, startCannedServer, type CannedServer } from '../helpers/canned-server.js'
import { watchSockets } from '../helpers/sockets.js'
import { tempDir } from '../helpers/temp-dir.js'
import { ask } from './record-replay.js'
import { captureWarnings } from '../helpers/warnings.js'
import { json, openaiClient, sse } from '../adapters/openai/helpers.js'

afterEach(() => vi.unstubAllEnvs())

/** A tool whose result's keys are not in sorted order, as most tools' results are not. */
const getWeather = traceTool('get_weather', async ({ city }: { city: string }) => ({ city, aqi: 42, level: 'good' }))

/** The weather agent of docs/replay.md: the tool's result goes into the next request as JSON text. */
function weatherAgent(server: CannedServer): () => Promise<{ answer: string; completions: string[]; toolResults: string[] }> {
  const client = openaiClient(server)
  return async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the air like in Paris?' }]
    const completions: string[] = []
    const toolResults: string[] = []
    for (let step = 0; step < 3; step++) {
      const completion = await client.chat.completions.create({ model: 'gpt-4o', messages })
      completions.push(JSON.stringify(completion))
      const { message } = completion.choices[0]!
      messages.push(message)
      if (!message.tool_calls?.length) return { answer: message.content ?? '', completions, toolResults }
      for (const call of message.tool_calls) {
        if (call.type !== 'function') continue
        const result = JSON.stringify(await getWeather(JSON.parse(call.function.arguments) as { city: string }))
        toolResults.push(result)
        messages.push({ role: 'tool', tool_call_id: call.id, content: result })
      }
    }
    throw new Error('no answer after 3 steps')
  }
}

/**
 * A completion's JSON with what the provider makes up on every call (ids,
 * times, the fingerprint) blanked: a recording keeps those in a steady form
 * (decision 044), everything else, key order included, as it came.
 */
function withoutVolatile(text: string): string {
  return text
    .replace(/"id":"(chatcmpl|call)[-_][^"]+"/g, '"id":"$1…"')
    .replace(/"created":\d+/g, '"created":…')
    .replace(/"system_fingerprint":"[^"]+"/g, '"system_fingerprint":…')
}

/** A weather run's output as `withoutVolatile` compares it. */
function steadyOutput(output: { answer: string; completions: string[]; toolResults: string[] }) {
  return { ...output, completions: output.completions.map(withoutVolatile) }
}

interface RecordingText {
  steps: Array<{ kind: string; request?: { messages: Array<{ content: string }> } }>
}

function stepsIn(path: string): RecordingText['steps'] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { scopes: RecordingText[] }).scopes[0]!.steps
}

/**
 * The modification time is the one it had: a replay marks the file used by
 * its access time (storage/recording-files.ts), which sets the modification
 * time again to itself, within the microsecond a float of seconds holds
 * (git compares the content then, and `git status` stays clean).
 */
function expectUntouched(path: string, mtimeMs: number): void {
  expect(Math.abs(statSync(path).mtimeMs - mtimeMs)).toBeLessThan(0.01)
}

describe('a session that changes nothing leaves its recording as it was', () => {
  it.each([false, true])('auto, offline, three times after a record (replayTools: %s): the same bytes and modification time', async (replayTools) => {
    vi.stubEnv('CI', '')
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const recorded = await session('weather', { traceDir: dir, replay: 'record', replayTools }, weatherAgent(server))
    await server.close()
    const path = join(dir, 'weather.recording.json')
    const text = readFileSync(path, 'utf8')
    const { mtimeMs } = statSync(path)

    for (const mode of ['auto', 'auto', 'auto', 'replay'] as const) {
      const sockets = watchSockets()
      const run = await session('weather', { traceDir: dir, replay: mode, replayTools }, weatherAgent(server))
      expect(sockets.opened()).toBe(0)
      expect(steadyOutput(run.output)).toEqual(steadyOutput(recorded.output))
      expect(readFileSync(path, 'utf8')).toBe(text)
      expectUntouched(path, mtimeMs)
    }
    expect(stepsIn(path).map((step) => step.kind)).toEqual(['exchange', 'tool', 'exchange'])
  })

  it('auto adds a tool run the recording lacks only when tools are recorded on purpose (replayTools)', async () => {
    vi.stubEnv('CI', '')
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    await session('weather', { traceDir: dir, replay: 'record' }, weatherAgent(server))
    await server.close()
    const path = join(dir, 'weather.recording.json')
    const recording = JSON.parse(readFileSync(path, 'utf8')) as { scopes: RecordingText[] }
    recording.scopes[0]!.steps = recording.scopes[0]!.steps.filter((step) => step.kind === 'exchange')
    writeFileSync(path, `${JSON.stringify(recording, null, 2)}\n`)
    const withoutTools = readFileSync(path, 'utf8')

    await session('weather', { traceDir: dir, replay: 'auto' }, weatherAgent(server))
    expect(readFileSync(path, 'utf8')).toBe(withoutTools)

    await session('weather', { traceDir: dir, replay: 'auto', replayTools: true }, weatherAgent(server))
    expect(stepsIn(path).map((step) => step.kind)).toEqual(['exchange', 'exchange', 'tool'])
    expect(readFileSync(path, 'utf8')).toContain('"result": {\n            "city": "Paris",\n            "aqi": 42,\n            "level": "good"\n          }')
  })
})

describe('a replayed value is the value that was recorded, key order included', () => {
  it('replayTools hands back the tool result with its keys in the order the tool returned them', async () => {
    const dir = tempDir()
    const agent = () => getWeather({ city: 'Paris' })
    const live = await session('weather', { traceDir: dir, replay: 'record' }, agent)
    const replayed = await session('weather', { traceDir: dir, replay: 'replay', replayTools: true }, agent)

    expect(Object.keys(replayed.output)).toEqual(['city', 'aqi', 'level'])
    expect(JSON.stringify(replayed.output)).toBe(JSON.stringify(live.output))
  })

  it('an agent that puts JSON.stringify of a replayed tool result into its next request replays without a miss, with the same completions', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const live = await session('weather', { traceDir: dir, replay: 'record' }, weatherAgent(server))
    await server.close()

    const replayed = await session('weather', { traceDir: dir, replay: 'replay', replayTools: true }, weatherAgent(server))

    expect(replayed.output.toolResults).toEqual(['{"city":"Paris","aqi":42,"level":"good"}'])
    expect(replayed.output.completions.map(withoutVolatile)).toEqual(live.output.completions.map(withoutVolatile))
    expect(replayed.output.answer).toBe('It is 18°C and sunny in Paris.')
  })

  it('a replayed stream yields chunks whose JSON is the live chunks’ JSON', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(sse('chat/final-answer.sse')))
    const streamed = async () => {
      const chunks: string[] = []
      for await (const chunk of await openaiClient(server).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      }))
        chunks.push(JSON.stringify(chunk))
      return chunks
    }
    const live = await session('stream', { traceDir: dir, replay: 'record' }, streamed)
    await server.close()
    const replayed = await session('stream', { traceDir: dir, replay: 'replay' }, streamed)
    expect(replayed.output.map(withoutVolatile)).toEqual(live.output.map(withoutVolatile))
  })

  it('a recording written with every key sorted (before key order was kept) still replays, and auto leaves it as it is', async () => {
    vi.stubEnv('CI', '')
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const live = await session('weather', { traceDir: dir, replay: 'record' }, weatherAgent(server))
    await server.close()
    const path = join(dir, 'weather.recording.json')
    const old = `${JSON.stringify(sortKeys(JSON.parse(readFileSync(path, 'utf8'))), null, 2)}\n`
    writeFileSync(path, old)

    const replayed = await session('weather', { traceDir: dir, replay: 'auto' }, weatherAgent(server))
    expect(replayed.output.answer).toBe(live.output.answer)
    expect(replayed.output.toolResults).toEqual(live.output.toolResults)
    expect(readFileSync(path, 'utf8')).toBe(old)
  })
})

describe("replay: 'prune'", () => {
  it('drops the recorded calls the run no longer made, keeps what it used and made in call order, and says so', async () => {
    vi.stubEnv('CI', '')
    const warnings = captureWarnings()
    const dir = tempDir()
    const answers = Array.from({ length: 4 }, () => json('chat/final-answer.json'))
    const server = await startCannedServer(inOrder(...answers))
    await session('support', { traceDir: dir, replay: 'record' }, ask(server, 'Where is order 42?', 'Refund order 42.', 'Thanks.'))
    const path = join(dir, 'support.recording.json')

    const pruned = await session('support', { traceDir: dir, replay: 'prune', strict: true }, ask(server, 'Where is order 42?', 'Refund order 43.', 'Thanks.'))

    expect(pruned.trace.turns.map((turn) => turn.llm_call.replayed ?? false)).toEqual([true, false, true])
    expect(server.requests).toHaveLength(4)
    expect(stepsIn(path).map((step) => step.request!.messages[0]!.content)).toEqual(['Where is order 42?', 'Refund order 43.', 'Thanks.'])
    expect((await warnings.seen()).map((warning) => warning.message)).toEqual([
      `reagent-flow: session "support": pruned 1 recorded call no longer made from ${path}.`,
    ])
  })

  it('leaves the file untouched when every recorded call was used', async () => {
    vi.stubEnv('CI', '')
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    await session('weather', { traceDir: dir, replay: 'record' }, weatherAgent(server))
    await server.close()
    const path = join(dir, 'weather.recording.json')
    const text = readFileSync(path, 'utf8')
    const { mtimeMs } = statSync(path)

    await session('weather', { traceDir: dir, replay: 'prune' }, weatherAgent(server))

    expect(readFileSync(path, 'utf8')).toBe(text)
    expectUntouched(path, mtimeMs)
  })

  it('does not prune a run that failed: it may have stopped before the calls it did not make', async () => {
    vi.stubEnv('CI', '')
    const warnings = captureWarnings()
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/final-answer.json')))
    await session('support', { traceDir: dir, replay: 'record' }, ask(server, 'Where is order 42?', 'Refund order 42.'))
    await server.close()
    const path = join(dir, 'support.recording.json')
    const text = readFileSync(path, 'utf8')

    const failing = async () => {
      await ask(server, 'Where is order 42?')()
      throw new Error('the agent crashed')
    }
    await expect(session('support', { traceDir: dir, replay: 'prune' }, failing)).rejects.toThrow('the agent crashed')

    expect(readFileSync(path, 'utf8')).toBe(text)
    expect(await warnings.seen()).toEqual([])
  })
})
