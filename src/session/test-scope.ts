/**
 * The vitest test a session belongs to, as `reagent-flow/vitest` gives it
 * (vitest/test-scope.ts makes one per test; session/context.ts keeps the
 * current one): types only, shared by the session, its files and the test runner.
 */
import type { Trace } from '../trace/types.js'
import type { ClosableSession } from './open-sessions.js'

/**
 * The vitest test a session is opened in, given by `reagent-flow/vitest`
 * (which wraps every test with it): sessions still open when the test ends
 * are closed as cancelled, and (with issue-10 scoping) files are placed by it.
 */
export interface TestScope {
  /** The vitest project's root directory. */
  readonly root: string
  /** The test file, relative to the root, with `/` separators. */
  readonly file: string
  /** The test's name with its describe blocks, `refund agent > refunds order 42`. */
  readonly testName: string
  /** Sessions opened in this test and not closed yet. */
  readonly openSessions: Set<ClosableSession>
  /** How many sessions of each key were opened in this test, so a second one gets ` #2`. */
  readonly keys: Map<string, number>
  /** `'all'` when the test runner was asked to update (vitest -u), read when asked; else the update mode is REAGENT_UPDATE's or CI's. */
  update(): 'all' | undefined
  /** Tells the test runner how a golden of this test ended (the run's summary and obsolete goldens come from these). */
  recordGolden(entry: GoldenEntry): void
  /** Tells the test runner how a tool contract of this test ended (the run's summary and obsolete contracts come from these). */
  recordContract(entry: ContractEntry): void
  /** Whether the run's reporter (reagent-flow/vitest/reporter) lists the goldens written at its end, as vitest does snapshots: a test then prints no line of its own for them. */
  goldensSummarized(): boolean
  /** Tells the test runner that a session of this test pruned its recording (`replay: 'prune'`), for the run's summary. */
  recordPruned(entry: PrunedEntry): void
  /** Tells the test runner that a session of this test closed, with the file its trace was written to (the run's results file lists it). */
  recordRun(trace: Trace, path: string | undefined): void
  /** When this test fails, shows `explain()` with its failure (what an agent's trace says about it); `explain` gets the messages of the test's errors, which vitest shows. */
  explainFailure(explain: (testErrors: readonly string[]) => string): void
}

/** One golden compared or written in a test. */
export interface GoldenEntry {
  /** The golden file, absolute. */
  path: string
  outcome: 'matched' | 'written' | 'updated' | 'reformatted' | 'unchanged' | 'failed' | 'missing'
}

/** One tool contract compared or written in a test (`toMatchToolContract`, `assertToolContract`). */
export interface ContractEntry {
  /** The contract file, absolute. */
  path: string
  outcome: 'matched' | 'written' | 'updated' | 'unchanged' | 'failed' | 'missing'
}

/** A recording a session of a test pruned: the recorded calls its run no longer made were dropped. */
export interface PrunedEntry {
  /** The recording file, absolute. */
  path: string
  /** How many recorded calls were dropped. */
  calls: number
}
