import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import '../../src/entries/vitest.js'
import { loadTrace, session, type Trace } from '../../src/entries/index.js'
import { renderGolden } from '../../src/golden/index.js'
import { scriptTrace, type ScriptedTurn } from '../helpers/script-trace.js'
import { tempDir } from '../helpers/temp-dir.js'
import { matcherFailure } from './helpers.js'

const refund: ScriptedTurn[] = [
  ['lookup_order', { order_id: '42' }, { amount: 19.99 }],
  ['check_policy', { days: 3 }, { eligible: true }],
  ['issue_refund', { order_id: '42', amount: 19.99 }, { ok: true }],
  'Refunded $19.99.',
]
const skipsPolicy: ScriptedTurn[] = [refund[0]!, refund[2]!, refund[3]!]

const goldenPath = (traceDir: string, name = 'refund-agent'): string => join(traceDir, 'golden', `${name}.trace.json`)

type SnapshotState = ReturnType<typeof expect.getState>['snapshotState']

/** Makes the matcher see vitest's snapshot update state as `mode` (what `vitest -u` sets to 'all'). */
const setVitestUpdate = (mode: 'all' | 'new'): void => expect.setState({ snapshotState: { snapshotUpdateState: mode } as SnapshotState })

let info: ReturnType<typeof vi.spyOn>
let vitestState: SnapshotState
beforeEach(() => {
  // The update mode of this test run (CI, REAGENT_UPDATE, even `vitest -u`) must not leak in: each test sets what it means.
  vi.stubEnv('CI', '')
  vi.stubEnv('REAGENT_UPDATE', '')
  vitestState = expect.getState().snapshotState
  setVitestUpdate('new')
  info = vi.spyOn(console, 'info').mockImplementation(() => undefined)
})
afterEach(() => {
  expect.setState({ snapshotState: vitestState })
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

/** Records `turns` as trace `name` (in memory). */
const run = (turns: ScriptedTurn[], name = 'refund-agent'): Trace => scriptTrace(turns, name)

describe('toMatchGolden()', () => {
  it('writes a missing golden in normal form, passes, and says so in the test output', async () => {
    const traceDir = tempDir()
    const trace = run(refund)
    await expect(trace).toMatchGolden({ traceDir })
    expect(readFileSync(goldenPath(traceDir), 'utf8')).toBe(renderGolden(trace).text)
    expect(info).toHaveBeenCalledWith(`Golden baseline for "refund-agent" written to ${goldenPath(traceDir)}. Review and commit it.`)
  })

  it('passes when the run behaves as its golden, and leaves the file alone', async () => {
    const traceDir = tempDir()
    await expect(run(refund)).toMatchGolden({ traceDir })
    utimesSync(goldenPath(traceDir), new Date(1_000_000), new Date(1_000_000))
    await expect(run(refund)).toMatchGolden({ traceDir })
    expect(statSync(goldenPath(traceDir)).mtimeMs).toBe(1_000_000)
    expect(info).toHaveBeenCalledTimes(1)
  })

  it('fails with our aligned diff alone: no actual/expected for vitest to draw a second diff from', async () => {
    const traceDir = tempDir()
    await expect(run(refund)).toMatchGolden({ traceDir })
    const changed = run(skipsPolicy)
    const failure = matcherFailure(() => expect(changed).toMatchGolden({ traceDir }))
    expect(failure.message).toBe(
      [
        `Trace "refund-agent" does not match its golden baseline (${goldenPath(traceDir)}):`,
        '1 difference (strict) · - expected: 4 turns · + actual: 3 turns',
        '',
        '- Turn 1 (expected)',
        '-   check_policy({"days":3})',
        '',
        `If the new behaviour is right, run the tests with REAGENT_UPDATE=all (or vitest -u), then review and commit ${goldenPath(traceDir)}.`,
      ].join('\n'),
    )
    expect([failure.actual, failure.expected]).toEqual([undefined, undefined])
  })

  it('fails on a changed model, and passes with ignore: ["model"]', async () => {
    const traceDir = tempDir()
    await expect(run(refund)).toMatchGolden({ traceDir })
    const other = scriptTrace(refund, 'refund-agent', 'gpt-4o-mini')
    expect(matcherFailure(() => expect(other).toMatchGolden({ traceDir })).message).toContain(
      ['Turn 0 (expected) ↔ Turn 0 (actual)', '  ~ model: "gpt-4o" → "gpt-4o-mini"', ''].join('\n'),
    )
    await expect(other).toMatchGolden({ traceDir, ignore: ['model'] })
  })

  it('records the model into a golden that predates comparing it, says so in the test output, and writes nothing under CI', async () => {
    const traceDir = tempDir()
    await expect(scriptTrace(refund, 'refund-agent', null)).toMatchGolden({ traceDir })
    const old = readFileSync(goldenPath(traceDir), 'utf8')
    vi.stubEnv('CI', 'true')
    await expect(run(refund)).toMatchGolden({ traceDir })
    expect(readFileSync(goldenPath(traceDir), 'utf8')).toBe(old)
    vi.stubEnv('CI', '')
    await expect(run(refund)).toMatchGolden({ traceDir })
    expect(info).toHaveBeenLastCalledWith(
      `Golden baseline for "refund-agent" at ${goldenPath(traceDir)} updated: model recorded (the golden predates comparing them; they are compared from now on). Review and commit it.`,
    )
    expect(readFileSync(goldenPath(traceDir), 'utf8')).toBe(renderGolden(run(refund)).text)
  })

  it('fails at once, so a missing await cannot let a mismatch pass', () => {
    const traceDir = tempDir()
    expect(run(refund)).toMatchGolden({ traceDir })
    expect(() => expect(run(skipsPolicy)).toMatchGolden({ traceDir })).toThrow(`Trace "refund-agent" does not match its golden baseline`)
  })

  it('takes the diffTraces options', async () => {
    const traceDir = tempDir()
    await expect(run(refund)).toMatchGolden({ traceDir })
    await expect(run(skipsPolicy)).toMatchGolden({ traceDir, mode: 'subset' })
  })

  it('fails under CI when the golden is missing, telling to record it locally and commit it', async () => {
    vi.stubEnv('CI', 'true')
    const traceDir = tempDir()
    const failure = matcherFailure(() => expect(run(refund)).toMatchGolden({ traceDir }))
    expect(failure.message).toBe(
      `No golden baseline for "refund-agent" at ${goldenPath(traceDir)}, and goldens are not written when the update mode is "none" ` +
        `(the default when CI is set). Record it locally (run the tests without CI, or with REAGENT_UPDATE=new) and commit ${goldenPath(traceDir)}.`,
    )
    expect(failure.actual).toBeUndefined()
    expect(existsSync(goldenPath(traceDir))).toBe(false)
  })

  it('rewrites the golden with REAGENT_UPDATE=all', async () => {
    const traceDir = tempDir()
    await expect(run(refund)).toMatchGolden({ traceDir })
    vi.stubEnv('REAGENT_UPDATE', 'all')
    await expect(run(skipsPolicy)).toMatchGolden({ traceDir })
    expect(readFileSync(goldenPath(traceDir), 'utf8')).toBe(renderGolden(run(skipsPolicy)).text)
    expect(info).toHaveBeenLastCalledWith(`Golden baseline for "refund-agent" rewritten at ${goldenPath(traceDir)} (update mode "all"). Review and commit it.`)
  })

  it("rewrites the golden when vitest runs with -u (its snapshot state's update mode is all), even under CI", async () => {
    const traceDir = tempDir()
    await expect(run(refund)).toMatchGolden({ traceDir })
    vi.stubEnv('CI', 'true')
    setVitestUpdate('all')
    await expect(run(skipsPolicy)).toMatchGolden({ traceDir })
    expect(readFileSync(goldenPath(traceDir), 'utf8')).toBe(renderGolden(run(skipsPolicy)).text)
  })

  it("uses a session's traceDir and redact; options.traceDir takes precedence", async () => {
    const traceDir = tempDir()
    const s = await session('support-agent', { traceDir, redact: ['ssn'] }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'verify', arguments: { ssn: '123-45-6789' }, callId: 'c1' }] })
      s.logToolResult('verify', { callId: 'c1', result: { ok: true } })
    })
    await expect(s).toMatchGolden()
    // A session of this test: its golden belongs to this test file, named after the test and the session.
    const inTestFile = (dir: string): string =>
      join(
        dir,
        'golden',
        'test',
        'vitest',
        'golden-matcher.test.ts',
        'toMatchGolden_____uses_a_session_s_traceDir_and_redact__options.traceDir_takes_precedence___support-agent.trace.json',
      )
    const golden = readFileSync(inTestFile(traceDir), 'utf8')
    expect(golden).toContain('"ssn": "[REDACTED]"')
    expect(golden).not.toContain('123-45-6789')

    const elsewhere = tempDir()
    await expect(s).toMatchGolden({ traceDir: elsewhere })
    expect(existsSync(inTestFile(elsewhere))).toBe(true)
  })

  it("marks the session's run file as compared with its golden (golden: true, for approve --all), once; the golden never holds the mark", async () => {
    const traceDir = tempDir()
    const s = await session('refund-agent', { traceDir }, (s) => void s.logLlmCall({ responseText: 'Refunded.' }))
    expect(loadTrace(s.path!).golden).toBeUndefined()
    await expect(s).toMatchGolden()
    const marked = readFileSync(s.path!, 'utf8')
    expect(marked.endsWith('  "golden": true\n}\n')).toBe(true)
    expect(loadTrace(s.path!)).toEqual({ ...loadTrace(s.path!), golden: true, trace_id: s.traceId, status: 'completed' })
    const goldens = readdirSync(join(traceDir, 'golden'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.trace.json'))
    expect(goldens).toHaveLength(1)
    expect(readFileSync(join(traceDir, 'golden', goldens[0]!), 'utf8')).not.toContain('"golden":')
    utimesSync(s.path!, new Date(1_000_000), new Date(1_000_000))
    await expect(s).toMatchGolden()
    expect(statSync(s.path!).mtimeMs).toBe(1_000_000)
  })

  it('cannot be negated', () => {
    expect(() => expect(run(refund)).not.toMatchGolden()).toThrow(
      new TypeError(
        'toMatchGolden() cannot be used with .not: a run either matches its golden or is written as the golden. ' +
          'To check that two traces differ, use expect(diffTraces(a, b).equal).toBe(false).',
      ),
    )
  })

  it('reports a bad option under its own name', () => {
    expect(() => expect(run(refund)).toMatchGolden({ update: 'all' } as never)).toThrow(
      new TypeError('Unknown toMatchGolden() option "update". Valid options: mode, args, ignore, traceDir, redact.'),
    )
    expect(() => expect(run(refund)).toMatchGolden({ mode: 'loose' } as never)).toThrow(
      new RangeError('toMatchGolden() option "mode" must be one of "strict", "unordered", "subset", "superset"; got "loose".'),
    )
  })
})
