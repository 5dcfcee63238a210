import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repeat, session, type Session } from '../../src/entries/index.js'
import { RunSet } from '../../src/repeat/run-set.js'
import { tempDir } from '../helpers/temp-dir.js'
import { flakyRefundAgent } from './seeded-agent.js'

const refunds = (run: Session): void => void run.assertCalled('issue_refund')

describe('repeat(k, name, options, fn)', () => {
  it('runs the agent k times, each run its own session and trace, and resolves to the run set', async () => {
    const traceDir = tempDir()
    const runs = await repeat(3, 'refund', { traceDir }, (s, run) => flakyRefundAgent(s, run))

    expect(runs).toBeInstanceOf(RunSet)
    expect(runs.name).toBe('refund')
    expect(runs.runs.map((run) => run.name)).toEqual(['refund #1', 'refund #2', 'refund #3'])
    expect(runs.runs.map((run) => run.status)).toEqual(['completed', 'completed', 'completed'])
    for (const [i, run] of runs.runs.entries()) {
      const file = JSON.parse(readFileSync(run.path!, 'utf8')) as Record<string, unknown>
      expect(file['repeat']).toEqual({ id: runs.id, name: 'refund', index: i + 1, of: 3 })
      expect(run.path).toBe(`${traceDir}/refund__${i + 1}.trace.json`)
    }
  })

  it('gives exact pass rates for an agent right in about 70% of runs (a seeded random choice)', async () => {
    const runs = await repeat(20, 'refund', { save: false }, (s, run) => flakyRefundAgent(s, run))

    expect(runs.passRate(refunds)).toBe(0.75)
    expect(runs.passAll(refunds)).toBe(false)
    expect(runs.passAny(refunds)).toBe(true)
    expect(
      runs
        .verdicts(refunds)
        .filter((v) => !v.passed)
        .map((v) => v.index),
    ).toEqual([7, 8, 11, 16, 18])
    expect(runs.passRate((run) => run.output !== undefined)).toBe(1)
    expect(runs.passAll((run) => run.assertCalled('lookup_order'))).toBe(true)
    expect(runs.passAny((run) => run.assertCalled('cancel_order'))).toBe(false)
  })

  it('runs `concurrency` runs at once, with the same draws, so the same pass rate', async () => {
    const inFlight = { now: 0, max: 0 }
    const runs = await repeat(10, 'refund', { save: false, concurrency: 4 }, (s, run) => flakyRefundAgent(s, run, inFlight))
    expect(inFlight.max).toBe(4)
    expect(runs.runs.map((run) => run.name)).toEqual(Array.from({ length: 10 }, (_, i) => `refund #${i + 1}`))
    expect(runs.passRate(refunds)).toBe(0.8)

    const sequential = { now: 0, max: 0 }
    await repeat(3, 'refund', { save: false }, (s, run) => flakyRefundAgent(s, run, sequential))
    expect(sequential.max).toBe(1)
  })

  it('counts a check that returns false, a run that threw and a cancelled run as failing, each with its first failing assertion', async () => {
    const runs = await repeat(4, 'mixed', { save: false, limits: { turns: 1 } }, (s, run) => {
      if (run.index === 2) throw new TypeError('the agent crashed\nat line 2')
      s.logLlmCall({ responseText: 'one' })
      if (run.index === 3) s.logLlmCall({ responseText: 'two' })
      return run.index
    })

    expect(runs.runs.map((run) => run.status)).toEqual(['completed', 'failed', 'cancelled', 'completed'])
    expect(runs.verdicts((run) => run.output !== 4).map((v) => [v.index, v.passed, v.failure])).toEqual([
      [1, true, undefined],
      [2, false, 'the agent threw TypeError: the agent crashed'],
      [3, false, 'the run was cancelled: limits.turns of 1 turn passed (2 model calls)'],
      [4, false, 'the check returned false'],
    ])
    expect(runs.verdicts((run) => run.assertMaxTurns(0))[0]!.failure).toBe('Expected at most 0 turns, got 1')
    expect(runs.verdicts((run) => expect(run.output).toBe(7))[0]!.failure).toBe('expected 1 to be 7 // Object.is equality')
    expect(runs.verdicts(() => JSON.parse('{'))[0]!.failure).toMatch(/^SyntaxError: /)
  })

  it('answers with promises when the check is async, judging the runs one at a time', async () => {
    const runs = await repeat(10, 'refund', { save: false }, (s, run) => flakyRefundAgent(s, run))
    let judging = 0
    const check = async (run: Session): Promise<void> => {
      expect(++judging).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 1))
      judging -= 1
      run.assertCalled('issue_refund')
    }
    const rate = runs.passRate(check)
    expect(rate).toBeInstanceOf(Promise)
    expect(await rate).toBe(0.8)
    expect(await runs.passAll(check)).toBe(false)
    expect(await runs.passAny(check)).toBe(true)
  })

  it('sums up the runs: pass rate, tokens, cost by the price table, duration and the file of each run', async () => {
    const traceDir = tempDir()
    const runs = await repeat(10, 'refund', { traceDir }, (s, run) => flakyRefundAgent(s, run))
    const summary = runs.summary(refunds)

    // gpt-4o-mini: $0.15 per 1M input and $0.60 per 1M output tokens; 450 in and 60 out per run.
    const usd = (450 * 0.15 + 60 * 0.6) / 1_000_000
    expect(summary).toMatchObject({ id: runs.id, name: 'refund', runs: 10, passed: 8, passRate: 0.8, tokens: { total: 5100, mean: 510 } })
    expect(summary.usd.total).toBeCloseTo(usd * 10, 15)
    expect(summary.usd.mean).toBeCloseTo(usd, 15)
    expect(summary.durationMs.max).toBeGreaterThanOrEqual(summary.durationMs.mean!)
    expect(summary.perRun[6]).toEqual({
      index: 7,
      name: 'refund #7',
      status: 'completed',
      passed: false,
      failure: '"issue_refund" was never called (3 turns, 2 tool calls)',
      tokens: 510,
      usd: expect.closeTo(usd, 15),
      durationMs: expect.any(Number),
      path: `${traceDir}/refund__7.trace.json`,
    })
    expect(runs.summary().passRate).toBeNull()
  })

  it("shares one golden among the runs of a set, the run set's, and counts a run that does not match it as failing", async () => {
    const traceDir = tempDir()
    const runs = await repeat(10, 'refund', { traceDir, golden: true }, (s, run) => flakyRefundAgent(s, run))

    expect(readdirSync(join(traceDir, 'golden'))).toEqual(['refund.trace.json'])
    const golden = readFileSync(join(traceDir, 'golden', 'refund.trace.json'), 'utf8')
    expect(JSON.parse(golden)).toMatchObject({ name: 'refund', trace_id: 'golden' })
    expect(golden).not.toContain('"repeat"')
    expect(
      runs
        .verdicts(() => true)
        .filter((v) => !v.passed)
        .map((v) => [v.index, v.failure]),
    ).toEqual([
      [7, '"refund #7" does not match its golden baseline'],
      [8, '"refund #8" does not match its golden baseline'],
    ])
  })

  it('opens the runs inside the session it is called in, as its children', async () => {
    const parent = await session('suite', { save: false }, () => repeat(2, 'refund', { save: false }, (s, run) => flakyRefundAgent(s, run)))
    expect(parent.children.map((child) => child.name)).toEqual(['refund #1', 'refund #2'])
  })

  it('checks its arguments before running anything', async () => {
    let ran = 0
    const agent = (): number => ++ran
    await expect(repeat(0, 'x', agent)).rejects.toThrow(new RangeError('repeat(): k must be a whole number of at least 1 (how many runs), got 0.'))
    await expect(repeat('3' as never, 'x', agent)).rejects.toThrow(new TypeError('repeat(): k must be a whole number of at least 1 (how many runs), got "3".'))
    await expect(repeat(3, '', agent)).rejects.toThrow(new TypeError(`repeat(k, name, ...) needs the run set's name, a non-empty string, got "".`))
    await expect(repeat(3, 'x', { concurrency: 0 }, agent)).rejects.toThrow(
      new RangeError('repeat(): option "concurrency" must be a whole number of at least 1 (how many runs go at once), got 0.'),
    )
    await expect(repeat(3, 'x', { concurency: 2 } as never, agent)).rejects.toThrow(
      new TypeError(
        'Unknown repeat() option "concurency". Valid options: traceDir, golden, parentTraceId, handoffContext, metadata, sessionId, userId, redact, save, journal, ledger, replay, strict, replayTools, faults, limits, concurrency.',
      ),
    )
    await expect(repeat(3, 'x', { save: false } as never)).rejects.toThrow(
      new TypeError('repeat(3, "x", ...) needs the agent to run, a function, as its last argument.'),
    )
    expect(ran).toBe(0)
  })
})
