/**
 * `expect(runSet).toPassInAtLeast(share, check)`: at least `share` of the
 * runs of a run set (`repeat()`) pass `check`. A failure lists the runs that
 * failed, each with its first failing assertion and its trace file.
 *
 * Synchronous when the check is (a failure fails the test at the line, awaited
 * or not); with an async check it returns a promise, to be awaited.
 */
import type { MatcherState } from 'vitest'
import { shownPath } from '../golden/index.js'
import { isRunSet, type RunSet } from '../repeat/run-set.js'
import type { RunCheck, RunVerdict } from '../repeat/verdicts.js'
import { plural } from '../report/format-value.js'
import type { MatcherOutcome } from './outcome.js'

const NAME = 'toPassInAtLeast'

/** `70%`, `66.7%`. */
function percent(share: number): string {
  return `${Number((share * 100).toFixed(1))}%`
}

function checkArguments(received: unknown, share: unknown, check: unknown): asserts received is RunSet {
  if (!isRunSet(received)) {
    throw new TypeError(
      `${NAME}() needs the run set repeat() resolves to, e.g. expect(await repeat(10, 'agent', run)).${NAME}(0.8, check); got ${received === null ? 'null' : typeof received}.`,
    )
  }
  if (typeof share !== 'number' || Number.isNaN(share))
    throw new TypeError(`${NAME}(share, check): share must be a number from 0 to 1 (the share of runs that must pass), got ${typeof share}.`)
  if (share < 0 || share > 1)
    throw new RangeError(
      `${NAME}(share, check): share must be a number from 0 to 1 (the share of runs that must pass), got ${share}${share > 1 && share <= 100 ? ` (for ${share}%, write ${share / 100})` : ''}.`,
    )
  if (typeof check !== 'function')
    throw new TypeError(
      `${NAME}(share, check): check must be a function of a run, e.g. (run) => expect(run).toHaveCalledTool('issue_refund'); got ${typeof check}.`,
    )
}

/** One failed run: its number, its first failing assertion, and where its trace is. */
function failedRunLines(verdict: RunVerdict): string[] {
  const where = verdict.run.path === undefined ? 'no trace file (save: false)' : shownPath(verdict.run.path)
  return [`  #${verdict.index}  ${verdict.failure ?? 'failed'}`, `      ${where}`]
}

function outcomeOf(set: RunSet, share: number, verdicts: readonly RunVerdict[]): MatcherOutcome {
  const passed = verdicts.filter((verdict) => verdict.passed).length
  const total = verdicts.length
  // Float noise aside (0.7 * 10 is 7.000000000000001): the fewest passing runs that make the share.
  const needed = Math.ceil(share * total - 1e-9)
  const rate = total === 0 ? 0 : passed / total
  const counts = `${passed} of ${total} passed (${percent(rate)})`
  const runs = `the ${plural(total, 'run')} of "${set.name}"`
  const failed = verdicts.filter((verdict) => !verdict.passed)
  return {
    pass: passed >= needed,
    message: () =>
      passed >= needed
        ? `expected fewer than ${percent(share)} of ${runs} to pass the check, but ${counts}`
        : [
            `expected at least ${percent(share)} of ${runs} to pass the check, but ${counts}. The ${plural(failed.length, 'run')} that failed:`,
            ...failed.flatMap(failedRunLines),
          ].join('\n'),
  }
}

export function toPassInAtLeast(this: MatcherState, received: unknown, share: number, check: RunCheck): MatcherOutcome | Promise<MatcherOutcome> {
  checkArguments(received, share, check)
  const verdicts: RunVerdict[] | Promise<RunVerdict[]> = received.verdicts(check)
  return verdicts instanceof Promise ? verdicts.then((settled) => outcomeOf(received, share, settled)) : outcomeOf(received, share, verdicts)
}
