import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { resume, session, traceTool } from '../../src/entries/index.js'
import { inOrder, startCannedServer, type CannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { captureWarnings } from '../helpers/warnings.js'
import { json, openaiClient } from '../adapters/openai/helpers.js'
import { getWeather } from '../adapters/openai/weather-agent.js'

/**
 * A weather agent that asks the model, runs the tool, then asks again;
 * `failAfterTool` makes a run fail between the two (a bug, an outage).
 */
function weatherAgent(server: CannedServer, tools: { runs: number }, { failAfterTool = false } = {}) {
  const client = openaiClient(server)
  const lookup = traceTool('get_weather', async (args: { city: string }) => {
    tools.runs++
    return getWeather(args)
  })
  return async () => {
    const question = { role: 'user' as const, content: 'Weather in Paris?' }
    const first = await client.chat.completions.create({ model: 'gpt-4o', messages: [question] })
    const message = first.choices[0]!.message
    const call = message.tool_calls![0]! as { id: string; function: { arguments: string } }
    const result = await lookup(JSON.parse(call.function.arguments) as { city: string })
    if (failAfterTool) throw new Error('the billing service is down')
    const second = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [question, message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) }],
    })
    return second.choices[0]!.message.content
  }
}

const journals = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.journal.jsonl'))

describe('resume()', () => {
  it('after a run that threw: the model call and the tool run it completed are answered from its journal, the rest runs live', async () => {
    const dir = tempDir()
    const first = await startCannedServer(inOrder(json('chat/tool-call.json')))
    const tools = { runs: 0 }
    await expect(session('weather-job', { traceDir: dir }, weatherAgent(first, tools, { failAfterTool: true }))).rejects.toThrow('the billing service is down')
    const failed = JSON.parse(readFileSync(join(dir, 'weather-job.trace.json'), 'utf8')) as { trace_id: string; status: string }
    expect(failed.status).toBe('failed')

    const second = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const s = await resume('weather-job', { traceDir: dir }, weatherAgent(second, tools))

    expect(s.output).toBe('It is 18°C and sunny in Paris.')
    expect(second.requests).toHaveLength(1)
    expect(tools.runs).toBe(1)
    expect(s.trace).toMatchObject({ status: 'completed', resumed_from: failed.trace_id, replayed_steps: 2 })
    expect(s.trace.turns.map((turn) => turn.llm_call.replayed ?? false)).toEqual([true, false])
    // The tool's replayed result is recorded as its result, with no mark: tool results keep exactly their four keys.
    expect(s.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'call_Wk3nq1UdFpYH3gL7f9rEoZ2c', result: getWeather({ city: 'Paris' }), error: null, duration_ms: expect.any(Number) },
    ])
    // A completed run is final: the journal of the run it resumed is gone with its own.
    expect(journals(dir)).toEqual([])
  })

  it('again after a resumed run failed too: its journal holds the steps it replayed as well', async () => {
    const dir = tempDir()
    const tools = { runs: 0 }
    await session(
      'weather-job',
      { traceDir: dir },
      weatherAgent(await startCannedServer(inOrder(json('chat/tool-call.json'))), tools, { failAfterTool: true }),
    ).catch(() => undefined)
    const idle = await startCannedServer(inOrder())
    const again = await resume('weather-job', { traceDir: dir }, weatherAgent(idle, tools, { failAfterTool: true })).catch((error: Error) => error.message)
    expect(again).toBe('the billing service is down')

    const last = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const s = await resume('weather-job', { traceDir: dir }, weatherAgent(last, tools))
    expect(s.trace.replayed_steps).toBe(2)
    expect(idle.requests).toEqual([])
    expect(last.requests).toHaveLength(1)
    expect(tools.runs).toBe(1)
  })

  it('of a run that completed starts a fresh run, never replaying it, and says so once', async () => {
    const warnings = captureWarnings()
    const dir = tempDir()
    const tools = { runs: 0 }
    await session(
      'weather-job',
      { traceDir: dir },
      weatherAgent(await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json'))), tools),
    )
    const server = await startCannedServer(
      inOrder(json('chat/tool-call.json'), json('chat/final-answer.json'), json('chat/tool-call.json'), json('chat/final-answer.json')),
    )

    const s = await resume('weather-job', { traceDir: dir }, weatherAgent(server, tools))
    await resume('weather-job', { traceDir: dir }, weatherAgent(server, tools))

    expect(server.requests).toHaveLength(4)
    expect(tools.runs).toBe(3)
    expect(s.trace.resumed_from).toBeUndefined()
    expect(s.trace.turns.some((turn) => turn.llm_call.replayed === true)).toBe(false)
    expect((await warnings.seen()).filter((warning) => warning.code === 'REAGENT_RESUME').map((warning) => warning.message)).toEqual([
      'reagent-flow: resume(): the last run of "weather-job" completed, so there is nothing to resume; it runs fresh.',
    ])
  })

  it('with nothing to resume runs fresh, with one warning naming the name and the directory', async () => {
    const warnings = captureWarnings()
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const s = await resume('never-ran', { traceDir: dir, sessionId: 'job-7' }, weatherAgent(server, { runs: 0 }))
    expect(s.status).toBe('completed')
    expect((await warnings.seen()).filter((warning) => warning.code === 'REAGENT_RESUME').map((warning) => warning.message)).toEqual([
      `reagent-flow: resume(): there is no failed, cancelled or interrupted run of "never-ran" (session_id "job-7") in ${dir} to resume; it runs fresh.`,
    ])
  })

  it("never resumes another user's run of the same name and session id", async () => {
    const dir = tempDir()
    const tools = { runs: 0 }
    await session(
      'weather-job',
      { traceDir: dir, sessionId: 's1', userId: 'alice' },
      weatherAgent(await startCannedServer(inOrder(json('chat/tool-call.json'))), tools, { failAfterTool: true }),
    ).catch(() => undefined)
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const bob = await resume('weather-job', { traceDir: dir, sessionId: 's1', userId: 'bob' }, weatherAgent(server, tools))
    expect(bob.trace.resumed_from).toBeUndefined()
    expect(server.requests).toHaveLength(2)
    expect(tools.runs).toBe(2)
  })

  it('takes the same signature as session(): a function alone, or options then a function', async () => {
    const dir = tempDir()
    const cwd = process.cwd()
    process.chdir(dir)
    onTestFinished(() => process.chdir(cwd))
    const s = await resume('no-options', () => 'done')
    expect(s.output).toBe('done')
    expect(readdirSync(join(dir, '.reagent'))).toEqual(['no-options.trace.json'])
    await expect(resume('bad', 'options' as never, () => 1)).rejects.toThrow(new TypeError('session() options must be an object, got string.'))
  })

  it('in prune, a step the resumed run answers keeps its recorded twin: a run that changes nothing leaves the recording as it was', async () => {
    vi.stubEnv('CI', '')
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const tools = { runs: 0 }
    await session('weather-job', { traceDir: dir, replay: 'record' }, weatherAgent(server, tools))
    await server.close()
    const path = join(dir, 'weather-job.recording.json')
    const text = readFileSync(path, 'utf8')
    await expect(session('weather-job', { traceDir: dir, replay: 'auto' }, weatherAgent(server, tools, { failAfterTool: true }))).rejects.toThrow(
      'the billing service is down',
    )
    const warnings = captureWarnings()

    const s = await resume('weather-job', { traceDir: dir, replay: 'prune' }, weatherAgent(server, tools))

    expect(s.trace).toMatchObject({ status: 'completed', replayed_steps: 2 })
    expect(readFileSync(path, 'utf8')).toBe(text)
    expect(await warnings.seen()).toEqual([])
  })
})
