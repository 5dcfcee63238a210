/**
 * resume() after the process running the agent was killed (SIGKILL): the
 * model call and the tool run it completed reached its journal before it
 * died, and a later process answers them from there instead of paying for
 * them again.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadTrace, resume, traceTool } from '../../src/entries/index.js'
import { inOrder, startCannedServer } from '../helpers/canned-server.js'
import { startChildAgent } from '../helpers/child-agent.js'
import { tempDir } from '../helpers/temp-dir.js'
import { json, openaiClient } from '../adapters/openai/helpers.js'
import { getWeather } from '../adapters/openai/weather-agent.js'

const ADAPTER = fileURLToPath(new URL('../../dist/src/entries/openai.js', import.meta.url))
const QUESTION = { role: 'user', content: 'Weather in Paris?' }

/** The first half of the agent, in a child process: a model call, a tool run, then it hangs until it is killed. */
function childAgent(baseURL: string): string {
  return `
    const { default: OpenAI } = await import('openai')
    const { instrumentOpenAI } = await import(${JSON.stringify(ADAPTER)})
    const client = instrumentOpenAI(new OpenAI({ baseURL: ${JSON.stringify(baseURL)}, apiKey: 'sk-test-key', maxRetries: 0 }))
    const lookup = reagent.traceTool('get_weather', async ({ city }) => ({ city, temperature_c: 18, conditions: 'sunny' }))
    await session('weather-job', { traceDir, sessionId: 'job-1' }, async () => {
      const first = await client.chat.completions.create({ model: 'gpt-4o', messages: [${JSON.stringify(QUESTION)}] })
      report()
      await lookup(JSON.parse(first.choices[0].message.tool_calls[0].function.arguments))
      report()
      await sleep(60_000)
    })
  `
}

describe('resume() after SIGKILL', () => {
  it('answers the steps the killed run completed from its journal, and runs only the rest', async () => {
    const traceDir = tempDir()
    const first = await startCannedServer(inOrder(json('chat/tool-call.json')))
    const child = startChildAgent(childAgent(`${first.url}/v1`), { traceDir })
    await child.waitForTurns(2)
    // The journal is appended 40 ms after a step completes.
    await new Promise((resolve) => setTimeout(resolve, 150))
    child.child.kill('SIGKILL')
    expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' })

    // The next command that reads the directory recovers the killed run from its journal.
    const killed = loadTrace(join(traceDir, 'weather-job.trace.json'))
    expect(killed).toMatchObject({ status: 'interrupted', interruption_reason: `process ${child.child.pid} exited before the session closed` })

    const second = await startCannedServer(inOrder(json('chat/final-answer.json')))
    const client = openaiClient(second)
    let toolRuns = 0
    const lookup = traceTool('get_weather', async (args: { city: string }) => {
      toolRuns++
      return getWeather(args)
    })
    const s = await resume('weather-job', { traceDir, sessionId: 'job-1' }, async () => {
      const firstAnswer = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather in Paris?' }] })
      const message = firstAnswer.choices[0]!.message
      const call = message.tool_calls![0]! as { id: string; function: { arguments: string } }
      const result = await lookup(JSON.parse(call.function.arguments) as { city: string })
      const final = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Weather in Paris?' }, message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) }],
      })
      return final.choices[0]!.message.content
    })

    expect(s.trace.resumed_from).toBe(killed.trace_id)
    expect(s.output).toBe('It is 18°C and sunny in Paris.')
    expect(s.trace.replayed_steps).toBe(2)
    expect(toolRuns).toBe(0)
    expect(first.requests).toHaveLength(1)
    expect(second.requests).toHaveLength(1)
  })
})
