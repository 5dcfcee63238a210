import { describe, expect, it } from 'vitest'
import '../../src/entries/vitest.js'
import { repeat, type Session } from '../../src/entries/index.js'
import { tempDir } from '../helpers/temp-dir.js'
import { flakyRefundAgent } from '../repeat/seeded-agent.js'
import { matcherFailure } from './helpers.js'

const refunds = (run: Session): void => expect(run).toHaveCalledTool('issue_refund')

describe('expect(runSet).toPassInAtLeast(share, check)', () => {
  it('passes when at least that share of the runs pass the check', async () => {
    const runs = await repeat(10, 'refund', { save: false }, (s, run) => flakyRefundAgent(s, run))
    expect(runs).toPassInAtLeast(0.8, refunds)
    expect(runs).toPassInAtLeast(0, refunds)
    expect(runs).not.toPassInAtLeast(0.9, refunds)
  })

  it('fails listing each failing run with its first failing assertion and its trace file', async () => {
    const traceDir = tempDir()
    const runs = await repeat(20, 'refund', { traceDir }, (s, run) => flakyRefundAgent(s, run))
    // Inside vitest, a run belongs to its test file and test: `<traceDir>/<test file>/<test name> > refund #<i>`.
    const test = 'expect_runSet_.toPassInAtLeast_share__check____fails_listing_each_failing_run_with_its_first_failing_assertion_and_its_trace_file'
    const file = (index: number): string => `${traceDir}/test/vitest/run-set-matcher.test.ts/${test}___refund__${index}.trace.json`
    const failure = matcherFailure(() => expect(runs).toPassInAtLeast(0.8, refunds))

    expect(failure.message).toBe(
      [
        'expected at least 80% of the 20 runs of "refund" to pass the check, but 15 of 20 passed (75%). The 5 runs that failed:',
        ...[7, 8, 11, 16, 18].flatMap((index) => [`  #${index}  "issue_refund" was never called (3 turns, 2 tool calls)`, `      ${file(index)}`]),
      ].join('\n'),
    )
  })

  it('with .not, fails saying how many passed', async () => {
    const runs = await repeat(10, 'refund', { save: false }, (s, run) => flakyRefundAgent(s, run))
    expect(matcherFailure(() => expect(runs).not.toPassInAtLeast(0.75, refunds)).message).toBe(
      'expected fewer than 75% of the 10 runs of "refund" to pass the check, but 8 of 10 passed (80%)',
    )
  })

  it('names runs kept in memory only, and runs that threw', async () => {
    const runs = await repeat(2, 'crashy', { save: false }, (s, run) => {
      if (run.index === 2) throw new Error('upstream is down')
      s.logLlmCall({ responseText: 'ok' })
    })
    expect(matcherFailure(() => expect(runs).toPassInAtLeast(1, () => undefined)).message).toBe(
      [
        'expected at least 100% of the 2 runs of "crashy" to pass the check, but 1 of 2 passed (50%). The 1 run that failed:',
        '  #2  the agent threw Error: upstream is down',
        '      no trace file (save: false)',
      ].join('\n'),
    )
  })

  it('returns a promise to await when the check is async', async () => {
    const runs = await repeat(10, 'refund', { save: false }, (s, run) => flakyRefundAgent(s, run))
    const check = async (run: Session): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, 1))
      run.assertCalled('issue_refund')
    }
    await expect(runs).toPassInAtLeast(0.8, check)
    await expect(expect(runs).toPassInAtLeast(0.9, check)).rejects.toThrow(
      'expected at least 90% of the 10 runs of "refund" to pass the check, but 8 of 10 passed (80%). The 2 runs that failed:\n  #7  "issue_refund" was never called (3 turns, 2 tool calls)\n',
    )
  })

  it('rejects what is not a run set, a share outside 0 to 1, and a check that is not a function', async () => {
    const runs = await repeat(1, 'one', { save: false }, () => undefined)
    // @ts-expect-error: the types reject what is not a run set, as the matcher does at run time.
    expect(() => expect({ runs: [] }).toPassInAtLeast(0.5, refunds)).toThrow(
      new TypeError(
        "toPassInAtLeast() needs the run set repeat() resolves to, e.g. expect(await repeat(10, 'agent', run)).toPassInAtLeast(0.8, check); got object.",
      ),
    )
    expect(() => expect(runs).toPassInAtLeast(80, refunds)).toThrow(
      new RangeError('toPassInAtLeast(share, check): share must be a number from 0 to 1 (the share of runs that must pass), got 80 (for 80%, write 0.8).'),
    )
    expect(() => expect(runs).toPassInAtLeast('0.8' as never, refunds)).toThrow(
      new TypeError('toPassInAtLeast(share, check): share must be a number from 0 to 1 (the share of runs that must pass), got string.'),
    )
    expect(() => expect(runs).toPassInAtLeast(0.8, 'issue_refund' as never)).toThrow(
      new TypeError(
        "toPassInAtLeast(share, check): check must be a function of a run, e.g. (run) => expect(run).toHaveCalledTool('issue_refund'); got string.",
      ),
    )
  })
})
