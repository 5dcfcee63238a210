/**
 * `repeat(k, name, opts, fn)`: runs an agent k times, each run a session of
 * its own (`<name> #1` ... `<name> #k`, each its own trace; inside vitest
 * each its own key of the test, as src/session/run-location.ts gives them), and
 * resolves to the RunSet. A run that throws is kept, as a failed run: the
 * run set says how often the agent gets it right.
 *
 * The traces of one run set share a `repeat` field ({ id, name, index, of })
 * that `reagent-flow list` groups them by; their golden is the run set's
 * (src/golden/identity.ts).
 */
import { currentTestScope } from '../session/context.js'
import { testKeyOf } from '../session/run-location.js'
import { runSession, type Session } from '../run/session.js'
import { checkOptions, type SessionOptions } from '../run/options.js'
import { sanitizeName } from '../storage/index.js'
import { ulid } from '../trace/ids.js'
import type { RepeatField } from '../trace/repeat-field.js'
import { RunSet } from './run-set.js'
import type { RepeatedRun } from './verdicts.js'

export interface RepeatOptions extends SessionOptions {
  /**
   * How many runs go at once. Default: 1, one after the other (the order a
   * seeded agent draws in, and a rate limit's friend).
   * @example { concurrency: 4 }
   */
  concurrency?: number
}

/** Which run of the set a run is. */
export interface RunPosition {
  /** From 1. */
  index: number
  /** How many runs the set has. */
  of: number
}

/** The agent: run once per repetition, with the run's session and its place in the set. */
export type RepeatFn<T> = (session: Session, run: RunPosition) => T | PromiseLike<T>

function checkCount(value: unknown, what: string, counts: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value
  const Kind = typeof value === 'number' ? RangeError : TypeError
  throw new Kind(
    `repeat(): ${what} must be a whole number of at least 1 (${counts}), got ${typeof value === 'number' || typeof value === 'string' ? JSON.stringify(value) : typeof value}.`,
  )
}

/** Runs `count` tasks, `concurrency` at a time, in order of their number. */
async function runPool(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < count) await task(next++)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
}

/**
 * Runs `fn` `k` times, each run in its own session, and resolves to the
 * RunSet of the closed sessions (failed runs included; nothing is thrown
 * for them). `options` are `session()`'s, for every run, and `concurrency`.
 *
 * @example
 * const runs = await repeat(10, 'refund-agent', { concurrency: 4 }, (s) => runAgent('Refund order 42'))
 * expect(runs.passRate((run) => run.assertCalled('issue_refund'))).toBeGreaterThanOrEqual(0.8)
 */
export function repeat<T>(k: number, name: string, fn: RepeatFn<T>): Promise<RunSet<T>>
export function repeat<T>(k: number, name: string, options: RepeatOptions, fn: RepeatFn<T>): Promise<RunSet<T>>
export async function repeat<T>(k: number, name: string, optionsOrFn: RepeatOptions | RepeatFn<T>, maybeFn?: RepeatFn<T>): Promise<RunSet<T>> {
  const fn = typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn
  if (typeof fn !== 'function')
    throw new TypeError(`repeat(${String(k)}, ${JSON.stringify(name)}, ...) needs the agent to run, a function, as its last argument.`)
  const runs = checkCount(k, 'k', 'how many runs')
  if (typeof name !== 'string' || name === '')
    throw new TypeError(`repeat(k, name, ...) needs the run set's name, a non-empty string, got ${JSON.stringify(name) ?? typeof name}.`)
  sanitizeName(name)
  const given = typeof optionsOrFn === 'function' ? {} : optionsOrFn
  const { concurrency: rawConcurrency, ...sessionOptions } = checkOptions(given, { caller: 'repeat()', ownOptions: ['concurrency'] }) as RepeatOptions
  const concurrency = rawConcurrency === undefined ? 1 : checkCount(rawConcurrency, 'option "concurrency"', 'how many runs go at once')

  const id = ulid()
  const scope = currentTestScope()
  const repeated: RepeatedRun<T>[] = new Array(runs)
  await runPool(runs, concurrency, async (at) => {
    const index = at + 1
    const field: RepeatField = { id, name, index, of: runs, ...(scope === undefined ? {} : { test_key: testKeyOf(scope, name) }) }
    const run = await runSession<T>(`${name} #${index}`, sessionOptions, (s) => fn(s, { index, of: runs }), { repeat: { ...field } })
    repeated[at] = run.threw ? { session: run.session, thrown: { error: run.error } } : { session: run.session }
  })
  return new RunSet(id, name, repeated)
}
