/**
 * The run results file the reporter writes at the end of every run
 * (docs/ci.md, "Run results"): every test of the run's files with its
 * outcome and its runs, from what each test's scope left in its task meta.
 *
 * Where: `<traceDir>/results/results.json` by default, or the reporter's
 * `results` path (relative to the vitest root). A shard of a `vitest --shard
 * i/n` run puts its shard in the name, `results.shard-2-of-3.json`, so the
 * shards of one build can be collected in one folder for `ci merge`.
 */
import { resolve } from 'node:path'
import type { TestCase, TestModule, Vitest } from 'vitest/node'
import { PACKAGE_VERSION } from '../base/package-version.js'
import { gitRevision } from '../ledger/git-revision.js'
import { RESULTS_VERSION, type RunResults, type ShardOfRun, type TestResult } from '../results/types.js'
import { testGoldenOutcome } from './golden-outcomes.js'
import { rootRelative, runsOfTest } from './run-results.js'
import { META_KEY, type ReagentTaskMeta } from './test-scope.js'

const DEFAULT_NAME = 'results.json'

/** Where the results of a run go: `path` (or `<traceDir>/results/results.json`), with the shard before the extension. */
export function resultsFilePath(root: string, traceDir: string, path: string | undefined, shard: ShardOfRun | null): string {
  const file = resolve(root, path ?? `${traceDir}/results/${DEFAULT_NAME}`)
  if (shard === null) return file
  const tag = `shard-${shard.index}-of-${shard.count}`
  const dot = file.lastIndexOf('.')
  return dot > file.lastIndexOf('/') ? `${file.slice(0, dot)}.${tag}${file.slice(dot)}` : `${file}.${tag}`
}

/** vitest's shard of this run, if it was run with `--shard`. */
function shardOf(vitest: Vitest): ShardOfRun | null {
  const shard = vitest.config.shard
  return shard === undefined ? null : { index: shard.index, count: shard.count }
}

/** The first line of a failed test's first error: its failing assertion, as vitest prints it first. */
function failureOf(test: TestCase): string | null {
  const result = test.result()
  if (result.state !== 'failed') return null
  const message = result.errors?.[0]?.message
  return typeof message === 'string' ? (message.split('\n')[0] ?? '').trim() : null
}

/** vitest's duration of the test, to the microsecond (as trace durations are). */
function durationOf(test: TestCase): number | null {
  const duration = test.diagnostic()?.duration
  return duration === undefined ? null : Math.round(duration * 1000) / 1000
}

function testResultOf(test: TestCase, file: string, root: string): TestResult {
  const meta = (test.meta() as Record<string, unknown>)[META_KEY] as ReagentTaskMeta | undefined
  const state = test.result().state
  const outcome = state === 'passed' || state === 'failed' ? state : 'skipped'
  return {
    file,
    name: test.fullName,
    line: test.location?.line ?? null,
    outcome,
    duration_ms: outcome === 'skipped' ? null : durationOf(test),
    failure: failureOf(test),
    golden: testGoldenOutcome(meta?.goldens ?? [], state === 'passed'),
    runs: runsOfTest(meta?.sessions ?? [], root),
  }
}

/** The results of the run of `modules`, which started at `startedAt` (epoch seconds) and ends now. */
export function resultsOfRun(vitest: Vitest, modules: ReadonlyArray<TestModule>, startedAt: number): RunResults {
  const root = vitest.config.root
  const revision = gitRevision(root)
  const files = modules
    .map((module) => ({ module, file: rootRelative(root, module.moduleId) }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  return {
    results_version: RESULTS_VERSION,
    reagent_flow_version: PACKAGE_VERSION,
    shard: shardOf(vitest),
    started_at: startedAt,
    ended_at: Date.now() / 1000,
    commit: revision.commit ?? null,
    branch: revision.branch ?? null,
    tests: files.flatMap(({ module, file }) => [...module.children.allTests()].map((test) => testResultOf(test, file, root))),
  }
}
