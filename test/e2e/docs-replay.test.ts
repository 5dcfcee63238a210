/**
 * The examples of docs/replay.md (examples/replay/), run as a user runs
 * them, in a project of their own (reagent-flow resolved by its public name
 * to the built dist/): the test file recorded against a canned OpenAI server,
 * then replayed under CI with the server stopped; the nightly script failed,
 * then resumed. test/docs/examples.test.ts checks the page shows them byte
 * for byte.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureJson, inOrder, startCannedServer } from '../helpers/canned-server.js'
import { DEFAULT_VITEST_CONFIG, examplesOf, runScript, scratchProject, writeFiles } from '../helpers/doc-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

const projects: string[] = []
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true })
})

function project(): string {
  const dir = scratchProject('reagent-replay-docs-')
  projects.push(dir)
  writeFiles(dir, examplesOf('replay'))
  writeFiles(dir, new Map([['vitest.config.ts', DEFAULT_VITEST_CONFIG]]))
  return dir
}

describe('the examples of record, replay and resume', () => {
  it('records the test file once against the model, then replays it under CI with no model at all', async () => {
    const dir = project()
    const server = await startCannedServer(inOrder({ json: fixtureJson('openai/chat/tool-call.json') }, { json: fixtureJson('openai/chat/final-answer.json') }))
    const env = { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-test-key' }
    const recorded = await runVitest(dir, { args: ['test/weather-agent.test.ts'], env })
    expect(recorded.output).toMatch(/Tests {2}1 passed \(1\)/)
    const recording = join(dir, '.reagent', 'test', 'weather-agent.test.ts', 'answers_with_the_weather_of_the_city_asked.recording.json')
    expect(existsSync(recording)).toBe(true)
    await server.close()

    const replayed = await runVitest(dir, { args: ['test/weather-agent.test.ts'], env: { ...env, CI: 'true' } })
    expect(replayed.output).toMatch(/Tests {2}1 passed \(1\)/)
    expect(replayed.exitCode).toBe(0)
    expect(server.requests).toHaveLength(2)
  })

  it('fails a call the recording lacks with the miss printed once, in replay and in auto with the model unreachable', async () => {
    const dir = project()
    const offline = await startCannedServer(inOrder())
    await offline.close()
    const env = { OPENAI_BASE_URL: `${offline.url}/v1`, OPENAI_API_KEY: 'sk-test-key' }
    const named = "LLM error: ReplayMissError (the test's error, shown in full below)\n  ✗ ReplayMissError (the test's error, shown in full below)\n"
    for (const mode of ['replay', 'auto']) {
      const { exitCode, output } = await runVitest(dir, { args: ['test/weather-agent.test.ts'], env: { ...env, REAGENT_REPLAY: mode } })
      expect(exitCode).toBe(1)
      expect(output.split('has no recorded answer').length - 1).toBe(1)
      expect(output).toContain(named)
      expect(output.includes('the model could not be reached to record it')).toBe(mode === 'auto')
    }
  })

  it('resumes the nightly script after it failed: the sales fetched and the summary written are not paid for twice', async () => {
    const dir = project()
    const openai = await startCannedServer(inOrder({ json: fixtureJson('openai/chat/final-answer.json') }))
    let publishes = 0
    const sales = await startCannedServer((request) => {
      if (request.path.startsWith('/sales')) return { json: { total: 1234 } }
      publishes++
      return publishes === 1 ? { status: 503, json: { error: 'down for maintenance' } } : { json: { ok: true } }
    })
    const env = { OPENAI_BASE_URL: `${openai.url}/v1`, OPENAI_API_KEY: 'sk-test-key', SALES_API: sales.url }

    const failed = await runScript(dir, 'scripts/nightly-report.ts', [], env)
    expect(failed.code).toBe(1)
    expect(failed.output).toContain('publishing failed: 503')
    const resumed = await runScript(dir, 'scripts/nightly-report.ts', ['--resume'], env)

    expect(resumed).toEqual({ code: 0, output: 'It is 18°C and sunny in Paris. (2 steps replayed)\n' })
    expect(sales.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /sales?day=2026-05-08', 'POST /publish', 'POST /publish'])
    expect(openai.requests).toHaveLength(1)
    expect(readdirSync(join(dir, '.reagent')).filter((name) => name.endsWith('.journal.jsonl'))).toEqual([])
  })
})
