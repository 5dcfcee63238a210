/**
 * The examples of the README's "Record and replay" and "Resume" sections,
 * run as a user runs them, in a project of their own (reagent-flow resolved
 * by its public name to the built dist/): the test file recorded against a
 * canned OpenAI server, then replayed under CI with the server stopped; the
 * nightly script failed, then resumed. Each example is kept in
 * test/replay/readme/ (compiled by `npm run typecheck`); the README shows
 * those files byte for byte.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { fixtureJson, inOrder, startCannedServer } from '../helpers/canned-server.js'
import { scratchProject } from '../helpers/readme-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLES = join(REPO, 'test', 'replay', 'readme')

/** The code blocks of the two sections that are files of the examples: they start with a `// <path>` line. */
function readmeExamples(): Map<string, string> {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
  const start = readme.indexOf('\n## Record and replay\n')
  const end = readme.indexOf('\n## ', readme.indexOf('\n## Resume\n') + 1)
  const examples = new Map<string, string>()
  for (const [, code] of readme.slice(start, end).matchAll(/```ts\n(\/\/ ((?:test|scripts)\/[\w.-]+\.ts)\n[\s\S]*?)```/g)) {
    examples.set(code!.slice(3, code!.indexOf('\n')), code!)
  }
  return examples
}

const projects: string[] = []
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true })
})

function project(): string {
  const dir = scratchProject('reagent-replay-readme-')
  projects.push(dir)
  for (const [path, code] of readmeExamples()) {
    mkdirSync(join(dir, dirname(path)), { recursive: true })
    writeFileSync(join(dir, path), code)
  }
  return dir
}

/** `node --import tsx <script> ...args` in `dir`, with `env`. */
function runScript(dir: string, script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(VITEST|CI$|REAGENT_|NODE_OPTIONS$)/.test(key)))
  const child = spawn(process.execPath, ['--no-warnings', '--import', 'tsx', script, ...args], { cwd: dir, env: { ...base, ...env } })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })))
}

describe('the README examples of record and replay, and resume', () => {
  it('shows, byte for byte, the example files of test/replay/readme/', () => {
    const examples = readmeExamples()
    expect([...examples.keys()].sort()).toEqual(['scripts/nightly-report.ts', 'test/weather-agent.test.ts'])
    for (const [path, code] of examples) expect(code).toBe(readFileSync(join(EXAMPLES, basename(path).replace(/(\.test)?\.ts$/, '.example.ts')), 'utf8'))
  })

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
