/**
 * The run results file (`results_version` 1): what a vitest run of agent
 * tests did, one file per run (per shard with `vitest --shard`), written by
 * `reagent-flow/vitest/reporter` and read by `reagent-flow ci merge` and
 * `ci gate`. `results.schema.json` is its contract (snake_case, as traces).
 *
 * Names and paths only: no trace content (no prompt, answer or argument) is
 * in it; each run points to its trace file.
 */

/** The version of the results format this reagent-flow writes and reads. */
export const RESULTS_VERSION = 1

/** Which shard of a `vitest --shard <index>/<count>` run the results are of. */
export interface ShardOfRun {
  /** From 1. */
  index: number
  count: number
}

/** Tokens and dollars of one role in a run: the agent, the simulated user, the judge. */
export interface RoleFigures {
  /** Input and output tokens; null when no model call recorded usage. */
  tokens: number | null
  /** USD by the price table; null when no model call could be priced. */
  usd: number | null
}

/** One run of a test: one session (each run of a `repeat()` run set is one). */
export interface RunResult {
  /** The session's name (a run set's runs are `<name> #1` ... `<name> #k`). */
  name: string
  status: 'active' | 'completed' | 'failed' | 'cancelled' | 'interrupted'
  /** The trace file, relative to the vitest root (`/` separators); null when it was not written (`save: false`, a failed write). */
  trace: string | null
  /** Tokens of the run: the agent's, its sub-agents', and its simulated user's and judge's when it has them. */
  tokens: number | null
  /** USD of the run, by the price table, over the same sessions as `tokens`. */
  usd: number | null
  /** Present only when the run had a simulated user, a judge or simulated tools: tokens and dollars of each role. */
  by_role?: { agent: RoleFigures; user?: RoleFigures; judge?: RoleFigures; tools?: RoleFigures }
  /** The agent's turns (model calls), its sub-agents' included. */
  turns: number
  /** The agent's tool calls, its sub-agents' included. */
  tool_calls: number
  /** From the session's start to its end; null when it never ended. */
  duration_ms: number | null
}

/** How the goldens of a test ended: `failed` if one failed (or was missing), else `written`, `updated`, `matched` in that order; `none` when the test compared none. */
export type GoldenOutcome = 'matched' | 'written' | 'updated' | 'failed' | 'none'

export interface TestResult {
  /** The test file, relative to the vitest root (`/` separators). */
  file: string
  /** The test's name with its describe blocks, `refund agent > refunds order 42`. */
  name: string
  /** The line of the test in its file; null unless vitest records it (its `includeTaskLocation` option). */
  line: number | null
  outcome: 'passed' | 'failed' | 'skipped'
  /** null for a test that did not run. */
  duration_ms: number | null
  /** The first line of the first error a failed test threw (its failing assertion); null otherwise. */
  failure: string | null
  golden: GoldenOutcome
  /** Its runs, in the order they closed. */
  runs: RunResult[]
}

export interface RunResults {
  results_version: typeof RESULTS_VERSION
  /** The reagent-flow that wrote the file. */
  reagent_flow_version: string
  /** The shard of the run; null for a run without `--shard` and for merged results. */
  shard: ShardOfRun | null
  /** Merged results only: the shards merged into them, in order. */
  merged_shards?: ShardOfRun[]
  /** Epoch seconds (as in traces). */
  started_at: number
  ended_at: number
  /** The git commit and branch of the code the run tested (the CI's variables first, then git); null when unknown. */
  commit: string | null
  branch: string | null
  /** Every test of the run's test files, by file then in the order of the file. */
  tests: TestResult[]
}
