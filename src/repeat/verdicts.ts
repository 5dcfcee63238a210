/**
 * Whether each run of a run set passes a check. A run passes when it
 * completed (its function returned, no limit stopped it), its golden matched
 * (`golden: true`), and the check passed: it returned (or resolved to)
 * anything but `false`, without throwing. So a check is written with the
 * assertion methods or vitest's `expect`, or as a predicate.
 *
 * Checks run one run at a time, in order: a check that writes a golden
 * (`toMatchGolden()` with none yet) writes it once. Synchronous checks give
 * synchronous verdicts; the first check that returns a promise makes the
 * rest asynchronous.
 */
import { isThenable } from '../base/thenable.js'
import { recordError } from '../trace/recorded-error.js'
import type { Session } from '../session/session.js'
import { goldenFailureOf } from '../run/golden-feature.js'

/** A check of one run: assertions that throw, or a predicate. Sync or async. */
export type RunCheck<T = unknown> = (run: Session<T>) => unknown

/** One run, with how its function ended. */
export interface RepeatedRun<T> {
  session: Session<T>
  /** What the run's function threw; absent when it returned. */
  thrown?: { error: unknown }
}

/** A run and whether it passed; `failure` is its first failing assertion, in one line. */
export interface RunVerdict<T = unknown> {
  run: Session<T>
  /** The run's number in its set, from 1. */
  index: number
  passed: boolean
  failure: string | undefined
}

/** Errors that are failed expectations: ours, vitest's and chai's, node:assert's, and vitest's for extended matchers. */
const ASSERTION_ERRORS: ReadonlySet<string> = new Set(['AssertionError', 'JestAssertionError', 'JestExtendError'])

/** The first line of an error, as a failure reads: a failed expectation by its message, anything else with its name. */
export function failureLine(error: unknown): string {
  const { name, message } = recordError(error)
  // A message's headline may end in a colon, introducing what follows it (a diff): not shown here.
  const first = (message.split('\n').find((line) => line.trim() !== '') ?? '').trim().replace(/:$/, '')
  if (!ASSERTION_ERRORS.has(name)) return `${name}: ${first}`
  // Ours carry the failed assertion in one line, without the agent stack trace the message goes on with.
  const assertion = (error as { assertion?: unknown } | null)?.assertion
  return typeof assertion === 'string' ? assertion : first
}

/** Why a run fails before its check is asked: it did not complete, or its golden did not match. */
function failedBeforeCheck<T>({ session, thrown }: RepeatedRun<T>): string | undefined {
  if (session.status === 'cancelled' || session.status === 'interrupted') {
    return `the run was ${session.status}${session.trace.interruption_reason === undefined ? '' : `: ${session.trace.interruption_reason}`}`
  }
  if (thrown !== undefined) return `the agent threw ${failureLine(thrown.error)}`
  const goldenFailure = goldenFailureOf(session)
  if (goldenFailure !== undefined) return failureLine(goldenFailure)
  return undefined
}

function verdictOf<T>(value: unknown, run: Session<T>, index: number): RunVerdict<T> {
  return value === false ? { run, index, passed: false, failure: 'the check returned false' } : { run, index, passed: true, failure: undefined }
}

function thrownVerdict<T>(error: unknown, run: Session<T>, index: number): RunVerdict<T> {
  return { run, index, passed: false, failure: failureLine(error) }
}

/** The verdict on run `index` (from 1): at once, or a promise when the check returns one. */
function judge<T>(repeated: RepeatedRun<T>, index: number, check: RunCheck<T>): RunVerdict<T> | Promise<RunVerdict<T>> {
  const run = repeated.session
  const early = failedBeforeCheck(repeated)
  if (early !== undefined) return { run, index, passed: false, failure: early }
  let value: unknown
  try {
    value = check(run)
  } catch (error) {
    return thrownVerdict(error, run, index)
  }
  if (!isThenable(value)) return verdictOf(value, run, index)
  return Promise.resolve(value).then(
    (resolved) => verdictOf(resolved, run, index),
    (error: unknown) => thrownVerdict(error, run, index),
  )
}

/** The verdicts on every run, in order: an array, or a promise of one once a check returns a promise. */
export function judgeRuns<T>(runs: readonly RepeatedRun<T>[], check: RunCheck<T>): RunVerdict<T>[] | Promise<RunVerdict<T>[]> {
  if (typeof check !== 'function')
    throw new TypeError(`A run check must be a function of the run, e.g. (run) => expect(run).toHaveCalledTool('issue_refund'); got ${typeof check}.`)
  const verdicts: RunVerdict<T>[] = []
  for (let i = 0; i < runs.length; i++) {
    const verdict = judge(runs[i]!, i + 1, check)
    if (verdict instanceof Promise) return judgeRest(runs, check, verdicts, verdict, i)
    verdicts.push(verdict)
  }
  return verdicts
}

async function judgeRest<T>(
  runs: readonly RepeatedRun<T>[],
  check: RunCheck<T>,
  verdicts: RunVerdict<T>[],
  pending: Promise<RunVerdict<T>>,
  at: number,
): Promise<RunVerdict<T>[]> {
  verdicts.push(await pending)
  for (let i = at + 1; i < runs.length; i++) verdicts.push(await judge(runs[i]!, i + 1, check))
  return verdicts
}
