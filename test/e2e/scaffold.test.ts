/**
 * `reagent-flow scaffold` end to end: a run of a real OpenAI-SDK agent is
 * recorded against the canned server (as a trace file, as OpenTelemetry
 * spans, in a ledger), scaffolded into a test, and the test is run by vitest
 * in the sample project: green as written, then a golden diff once the
 * agent's prompt is changed.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { session } from 'reagent-flow'
import { fixtureJson, inOrder, startCannedServer } from '../helpers/canned-server.js'
import { copySampleProject, runVitest } from '../helpers/vitest-project.js'
import { runCli } from '../cli/run-cli.js'
import { post, spawnServe } from '../ledger/serve-process.js'
import type * as WeatherAgentModule from '../../fixtures/vitest-incidents/src/weather-agent.js'

const REPO_MODULES = join(import.meta.dirname, '../../node_modules')
const QUESTION = 'What is the weather in Paris?'
const GOLDEN = '.reagent/golden/test/incidents/weather-agent.test.ts/does_what_it_did_in_run_weather-agent.trace.json'

let project: { dir: string; remove: () => void }

beforeEach(() => {
  project = copySampleProject('vitest-incidents')
  // The agent's own dependency, as the project would install it.
  symlinkSync(join(REPO_MODULES, 'openai'), join(project.dir, 'node_modules', 'openai'), 'dir')
})
afterEach(() => project.remove())

/** Runs the project's agent once against the canned server (a tool call, then the answer), in a session of the built package: the incident. */
async function recordIncident(options: { ledger?: string } = {}): Promise<string> {
  const { weatherAgent } = (await import(join(project.dir, 'src', 'weather-agent.ts'))) as typeof WeatherAgentModule
  const server = await startCannedServer(inOrder({ json: fixtureJson('openai/chat/tool-call.json') }, { json: fixtureJson('openai/chat/final-answer.json') }))
  process.env.OPENAI_BASE_URL = `${server.url}/v1`
  try {
    const tools = { get_weather: async ({ city }: { city: string }) => ({ city, temperature_c: 18, sky: 'sunny' }) }
    const s = await session('weather-agent', { traceDir: join(project.dir, '.reagent'), ...options }, () => weatherAgent(QUESTION, { tools }))
    return s.trace.trace_id
  } finally {
    delete process.env.OPENAI_BASE_URL
    await server.close()
  }
}

/** The generated test, with the header lines that name the run's id, time and source as `<...>`. */
function writtenTest(): string {
  return readFileSync(join(project.dir, 'test', 'incidents', 'weather-agent.test.ts'), 'utf8')
    .replace(/\(trace \w+, started [^)]+\)/, '(trace <id>, started <time>)')
    .replace(/^ \* from .*$/m, ' * from <source>.')
}

const EXPECTED_TEST = `// test/incidents/weather-agent.test.ts
/**
 * Incident: run "weather-agent" (trace <id>, started <time>),
 * from <source>.
 * Written by \`reagent-flow scaffold\`.
 *
 * The agent is called with the run's input and { fetch, tools }: a scripted model answering each model call
 * as the run's model did, and tools answering with the run's recorded results, so no model and no production
 * system is reached. The test passes while the agent does what it did in the run; when it does something
 * else, the golden diff says what changed.
 *
 * The golden (commit it): ${GOLDEN}
 * Once the new behaviour is right, make it the golden: npx vitest run test/incidents/weather-agent.test.ts -u
 * Scaffold the test again from the run: SCAFFOLD_COMMAND --force
 */
import { expect } from 'vitest'
import { scriptedFetch, scriptedTools } from 'reagent-flow/fake'
import { test } from 'reagent-flow/vitest'
import { weatherAgent } from '../../src/weather-agent.js'

// The agent's input in the run: the first user message of its first model call.
const input = 'What is the weather in Paris?'

test('does what it did in run weather-agent', async ({ agentSession }) => {
  // The model's answers in the run, one per model call.
  const fetch = scriptedFetch([
    {
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      usage: { inputTokens: 82, outputTokens: 16 },
    },
    { text: 'It is 18°C and sunny in Paris.', usage: { inputTokens: 121, outputTokens: 12 } },
  ])
  // The tools' results in the run, call by call.
  const tools = scriptedTools({ get_weather: [{ result: { city: 'Paris', temperature_c: 18, sky: 'sunny' } }] })

  const s = await agentSession(() => weatherAgent(input, { fetch, tools }))

  expect(s).toMatchFlow(['get_weather'])
  // The tools each model call offered in the run.
  expect(fetch.requests.map((request) => request.tools.map((tool) => tool.name).sort())).toEqual([
    ['get_weather'],
    ['get_weather'],
  ])
  // The run is the golden. The scripted model answers as whichever model the agent asks for, so model names are not compared.
  expect(s).toMatchGolden({ ignore: ['model'] })
})
`

/** The written test passes; after a prompt edit it fails with the golden diff, and `-u` makes the new run the golden. */
async function expectGreenThenGoldenDiff(): Promise<void> {
  const green = await runVitest(project.dir)
  expect([green.exitCode, green.output]).toEqual([0, expect.stringContaining('✓ test/incidents/weather-agent.test.ts (1 test)')])

  const agentFile = join(project.dir, 'src', 'weather-agent.ts')
  writeFileSync(agentFile, readFileSync(agentFile, 'utf8').replace('Look it up before you answer.', 'Answer briefly.'))
  const red = await runVitest(project.dir)
  expect(red.exitCode).toBe(1)
  expect(red.output).toContain(
    [
      `Error: Trace "does what it did in run weather-agent" does not match its golden baseline (${GOLDEN}):`,
      '1 difference (strict) · - expected: 2 turns · + actual: 2 turns',
      '',
      'Turn 0 (expected) ↔ Turn 0 (actual)',
      '  ~ system_prompt: "You answer questions about the weather. Look it up before you answer." → "You answer questions about the weather. Answer briefly."',
    ].join('\n'),
  )
  const accepted = await runVitest(project.dir, { args: ['-u'] })
  expect([accepted.exitCode, (await runVitest(project.dir)).exitCode]).toEqual([0, 0])
}

describe('reagent-flow scaffold', () => {
  it('turns a run recorded by the OpenAI adapter into a test that passes as written and fails with a golden diff once the agent changes', async () => {
    await recordIncident()

    const { code, stdout, stderr } = runCli(['scaffold', 'weather-agent', '--agent', 'src/weather-agent.ts#weatherAgent'], project.dir)

    expect([code, stderr]).toEqual([0, ''])
    expect(stdout).toBe(
      [
        'wrote test/incidents/weather-agent.test.ts: run weather-agent from trace file .reagent/weather-agent.trace.json',
        '  2 model answers (scripted for openai), 1 tool result, flow: get_weather',
        `wrote ${GOLDEN}: the run as the test's golden (commit it)`,
        'run it: npx vitest run test/incidents/weather-agent.test.ts',
        '',
      ].join('\n'),
    )
    expect(writtenTest()).toBe(EXPECTED_TEST.replace('SCAFFOLD_COMMAND', "npx reagent-flow scaffold weather-agent --agent 'src/weather-agent.ts#weatherAgent'"))
    await expectGreenThenGoldenDiff()
  })

  it('turns an imported OpenTelemetry file into the same test', async () => {
    await recordIncident()
    expect(runCli(['export', 'weather-agent', '--otlp', '--include-content', '--out', 'spans.json'], project.dir).code).toBe(0)

    const { code, stdout, stderr } = runCli(['scaffold', 'spans.json', '--agent', 'src/weather-agent.ts#weatherAgent', '--dir', '.reagent'], project.dir)

    expect([code, stderr]).toEqual([0, ''])
    expect(stdout.split('\n')[0]).toBe('wrote test/incidents/weather-agent.test.ts: run weather-agent from OpenTelemetry spans spans.json')
    expect(writtenTest()).toBe(EXPECTED_TEST.replace('SCAFFOLD_COMMAND', "npx reagent-flow scaffold spans.json --agent 'src/weather-agent.ts#weatherAgent'"))
    await expectGreenThenGoldenDiff()
  })

  it('turns a run of a ledger (reagent-flow serve, fetched with trace.get) into the same test', async () => {
    const ledger = await spawnServe(['--store', join(project.dir, 'ledger-store')], project.dir)
    const runId = await recordIncident({ ledger: ledger.url })
    // session() hands the upload off: the run's trace is in the ledger a moment later.
    await vi.waitFor(async () => expect((await post<{ trace: unknown }>(ledger.url, 'trace.get', { run_id: runId })).body.trace).toEqual(expect.anything()), {
      timeout: 10_000,
    })

    const { code, stdout, stderr } = runCli(['scaffold', runId, '--ledger', ledger.url, '--agent', 'src/weather-agent.ts#weatherAgent'], project.dir)

    expect([code, stderr]).toEqual([0, ''])
    expect(stdout.split('\n')[0]).toBe(`wrote test/incidents/weather-agent.test.ts: run weather-agent from ledger ${ledger.url}, run ${runId}`)
    expect(writtenTest()).toBe(
      EXPECTED_TEST.replace('SCAFFOLD_COMMAND', `npx reagent-flow scaffold ${runId} --agent 'src/weather-agent.ts#weatherAgent' --ledger ${ledger.url}`),
    )
    await expectGreenThenGoldenDiff()
  })
})
