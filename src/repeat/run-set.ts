/**
 * A run set: the k runs `repeat()` made of one agent, and how often they
 * pass a check — the share (`passRate`), all of them (`passAll`, tau-bench's
 * pass^k) or at least one (`passAny`, pass@k).
 *
 * With a synchronous check the answers are immediate; with an async one
 * (a check that awaits, an LLM judge) they are promises.
 */
import type { Session } from '../session/session.js'
import { isThenable } from '../base/thenable.js'
import { summarize, type RunSetSummary } from './summary.js'
import { judgeRuns, type RepeatedRun, type RunCheck, type RunVerdict } from './verdicts.js'

/** Marks run sets across copies of reagent-flow (the matcher may come from another copy than `repeat`). */
const brand = Symbol.for('reagent-flow.run-set')

/** Applies `then` to a value now, or to a promise of it when it is one. */
function after<A, B>(value: A | Promise<A>, then: (value: A) => B): B | Promise<B> {
  return isThenable(value) ? Promise.resolve(value).then(then) : then(value)
}

export class RunSet<T = unknown> {
  /** The run set's id, in each of its traces as `repeat.id`. */
  readonly id: string
  /** The name given to `repeat`; run i is named `<name> #i`. */
  readonly name: string
  /** The closed sessions of the runs, in order (run 1 first), failed ones included. */
  readonly runs: readonly Session<T>[]
  readonly #repeated: readonly RepeatedRun<T>[]

  constructor(id: string, name: string, repeated: readonly RepeatedRun<T>[]) {
    this.id = id
    this.name = name
    this.#repeated = repeated
    this.runs = repeated.map((run) => run.session)
    Object.defineProperty(this, brand, { value: true })
  }

  /**
   * Each run with whether it passed `check` and, if not, its first failing
   * assertion. A run passes when it completed, matched its golden
   * (`golden: true`), and `check(run)` neither threw nor returned `false`.
   */
  verdicts(check: (run: Session<T>) => PromiseLike<unknown>): Promise<RunVerdict<T>[]>
  verdicts(check: RunCheck<T>): RunVerdict<T>[]
  verdicts(check: RunCheck<T>): RunVerdict<T>[] | Promise<RunVerdict<T>[]> {
    return judgeRuns(this.#repeated, check)
  }

  /**
   * The share of runs that pass `check`, from 0 to 1.
   * @example runs.passRate((run) => run.assertCalled('issue_refund'))   // 0.7
   */
  passRate(check: (run: Session<T>) => PromiseLike<unknown>): Promise<number>
  passRate(check: RunCheck<T>): number
  passRate(check: RunCheck<T>): number | Promise<number> {
    return after(this.verdicts(check), (verdicts) => (verdicts.length === 0 ? 0 : verdicts.filter((v) => v.passed).length / verdicts.length))
  }

  /** Whether every run passes `check` (pass^k: the agent is reliable). */
  passAll(check: (run: Session<T>) => PromiseLike<unknown>): Promise<boolean>
  passAll(check: RunCheck<T>): boolean
  passAll(check: RunCheck<T>): boolean | Promise<boolean> {
    return after(this.verdicts(check), (verdicts) => verdicts.every((v) => v.passed))
  }

  /** Whether at least one run passes `check` (pass@k: the agent can do it). */
  passAny(check: (run: Session<T>) => PromiseLike<unknown>): Promise<boolean>
  passAny(check: RunCheck<T>): boolean
  passAny(check: RunCheck<T>): boolean | Promise<boolean> {
    return after(this.verdicts(check), (verdicts) => verdicts.some((v) => v.passed))
  }

  /**
   * Per run and over the set: status, tokens, cost (by the price table),
   * duration, the trace file, and with `check` the pass rate and each run's
   * first failing assertion.
   * @example console.table((await runs.summary(check)).perRun)
   */
  summary(check: (run: Session<T>) => PromiseLike<unknown>): Promise<RunSetSummary>
  summary(check?: RunCheck<T>): RunSetSummary
  summary(check?: RunCheck<T>): RunSetSummary | Promise<RunSetSummary> {
    const runs = this.runs as readonly Session[]
    if (check === undefined) return summarize(this.id, this.name, runs, undefined)
    return after(this.verdicts(check), (verdicts) => summarize(this.id, this.name, runs, verdicts as RunVerdict[]))
  }
}

/** Whether `value` is a run set, also one made by another copy of reagent-flow. */
export function isRunSet(value: unknown): value is RunSet {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
}
