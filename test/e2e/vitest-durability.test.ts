/**
 * Runs that vitest ends before they finish, and many workers writing at
 * once: vitest as a child process over fixtures/vitest-durability/.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadTrace } from 'reagent-flow'
import { runVitest } from '../helpers/vitest-project.js'

const REPO = fileURLToPath(new URL('../../', import.meta.url))

function copyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'reagent-vitest-durability-'))
  cpSync(join(REPO, 'fixtures', 'vitest-durability'), dir, { recursive: true })
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(REPO, join(dir, 'node_modules', 'reagent-flow'), 'dir')
  symlinkSync(join(REPO, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'), 'dir')
  return dir
}

/** Eight test files, each recording sessions named "shared-agent" and writing traces named "shared-file". */
function addSharedFiles(dir: string): void {
  for (let n = 1; n <= 8; n++) {
    writeFileSync(
      join(dir, 'test', `shared-${n}.test.ts`),
      `import { expect, test } from 'vitest'
import { session } from 'reagent-flow'
import { saveTrace } from 'reagent-flow/files'

test('file ${n} records and writes one name many times', async () => {
  for (let i = 0; i < 12; i++) {
    const s = await session('shared-agent', { traceDir: '.reagent', metadata: { file: ${n}, run: i } }, (s) => {
      for (let t = 0; t < 40; t++) {
        s.logLlmCall({ toolCalls: [{ name: 'step', arguments: { file: ${n}, run: i, t } }] })
        s.logToolResult('step', { result: 'x'.repeat(100 * t) })
      }
    })
    saveTrace({ ...s.trace, name: 'shared-file' }, { traceDir: '.reagent' })
  }
  expect(true).toBe(true)
}, 60_000)
`,
    )
  }
}

describe('vitest ending runs before they finish', () => {
  let dir: string
  let output: string
  beforeAll(async () => {
    dir = copyProject()
    const run = await runVitest(dir, { args: ['test/timeout.test.ts'] })
    output = run.output
    expect(run.exitCode).toBe(1)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('fails the timed-out tests, and the later test passes with no unhandled error', () => {
    expect(output).toContain('Tests  2 failed | 1 passed (3)')
    expect(output).not.toMatch(/Unhandled|SessionClosedError/)
  })

  it.each([
    ['an agent session', 'an_agent_session_that_outlives_its_test'],
    ['a plain session', 'a_plain_session_that_outlives_its_test___plain-slow-agent'],
  ])('closes %s as cancelled, "test timed out after 400 ms", with what it logged before', (_, file) => {
    const trace = loadTrace(join(dir, '.reagent', 'test', 'timeout.test.ts', `${file}.trace.json`))
    expect(trace).toMatchObject({ status: 'cancelled', interruption_reason: 'test timed out after 400 ms' })
    expect(trace.turns.map((turn) => turn.llm_call.tool_calls.map((call) => call.name))).toEqual([['search']])
    expect(trace.turns[0]!.tool_results).toEqual([])
  })

  it('drops what the agents logged after their test ended, warning once each', () => {
    expect(output.match(/was closed as cancelled \(test timed out after 400 ms\) while its agent still ran/g)).toHaveLength(2)
  })
})

describe.each(['threads', 'forks'])('eight test files writing one name at once (pool %s)', (pool) => {
  let dir: string
  beforeAll(() => {
    dir = copyProject()
    rmSync(join(dir, 'test', 'timeout.test.ts'))
    addSharedFiles(dir)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('passes, and leaves one valid trace per file and name, and no temporary or journal file', async () => {
    const run = await runVitest(dir, { args: [`--pool=${pool}`, '--maxWorkers=8'] })
    expect(run.output).toContain('Tests  8 passed (8)')
    expect(run.exitCode).toBe(0)
    // saveTrace writes by name alone, so all eight files wrote one file: it holds one whole trace.
    expect(readdirSync(join(dir, '.reagent')).sort()).toEqual(['shared-file.trace.json', 'test'])
    expect(loadTrace(join(dir, '.reagent', 'shared-file.trace.json')).turns).toHaveLength(40)
    // Sessions belong to their test file and test, a later one of the same name numbered: none replaces another.
    const key = (n: number, run: number): string =>
      `file_${n}_records_and_writes_one_name_many_times___shared-agent${run === 0 ? '' : `__${run + 1}`}.trace.json`
    for (let n = 1; n <= 8; n++) {
      const folder = join(dir, '.reagent', 'test', `shared-${n}.test.ts`)
      expect(readdirSync(folder).sort()).toEqual(Array.from({ length: 12 }, (_, run) => key(n, run)).sort())
      for (const run of [0, 11]) expect(loadTrace(join(folder, key(n, run))).metadata).toEqual({ file: n, run })
    }
  })
})
