/**
 * `reagent-flow/vitest/reporter`: the goldens of a vitest run, summed up once
 * per run (not per worker), as vitest sums up its snapshots, and the
 * goldens no test owns any more. Added with one line:
 *
 *   reporters: ['default', 'reagent-flow/vitest/reporter']
 *
 * or with the plugin: `plugins: [reagentFlow()]`.
 *
 * In the main process it reads what each test recorded in its task meta
 * (test-scope.ts) — which goldens it matched, wrote, updated or failed —
 * and then looks at the golden folders of the test files that ran:
 *
 * - a golden in a test file's folder that no test of the file asked for is
 *   obsolete (a renamed or deleted test), unless a test of the file did not
 *   run (skipped, filtered out with -t or .only) or failed (before its
 *   golden assertion, maybe) and could own it;
 * - the folder of a test file that no longer exists is obsolete as a whole;
 * - with `vitest -u` (or REAGENT_UPDATE=all), obsolete goldens are removed,
 *   but only for test files that ran in full, and for deleted test files
 *   only when the run was not filtered to some files.
 *
 * Tool contracts (`toMatchToolContract()`, `<traceDir>/contracts/`) are
 * summed up, listed when written and found obsolete the same way, on a
 * line of their own (owned-files.ts does both kinds).
 *
 * It also sums up the recordings sessions pruned (`replay: 'prune'`), from
 * the same task meta, with the recorded calls each one dropped.
 *
 * The goldens the run wrote or rewrote are listed after the summary line,
 * as vitest's snapshots are: it tells the workers (`provide`) that it does,
 * so a test prints no line of its own for them.
 *
 * At the end of every run it writes the run's results file
 * (run-results-file.ts): every test, its outcome and its runs, for
 * `reagent-flow ci merge` and `ci gate`. Under GitHub Actions it also
 * appends them to the job summary and annotates failing agent tests
 * (github-actions.ts).
 *
 * `reagentFlow()` (plugin.ts) adds this reporter. Without it everything else
 * works (setupFiles alone): there is just no summary, no obsolete report and
 * no results file, and each test says which golden it wrote.
 */
import { resolve } from 'node:path'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { resolveUpdateMode, shownPath } from '../golden/index.js'
import { DEFAULT_TRACE_DIR } from '../storage/index.js'
import { writeReportAtEnd } from '../viewer/vitest-reporter.js'
import { writeResultsFile } from '../results/results-file.js'
import type { RunResults } from '../results/types.js'
import { isGitHubActions, reportToGitHubActions } from './github-actions.js'
import { FILE_KINDS, filesOf, logObsolete, logSummary } from './owned-files.js'
import { resultsFilePath, resultsOfRun } from './run-results-file.js'
import { META_KEY, type ReagentTaskMeta } from './test-scope.js'

export interface ReagentReporterOptions {
  /** The traceDir your tests' sessions use, relative to the vitest root. Default: `".reagent"`. */
  traceDir?: string
  /** Also write the HTML report of the trace directory here at the end of every run (relative to the vitest root). @example 'reagent-report.html' */
  report?: string
  /** The report's title. Default: `reagent-flow report · <traceDir>`. */
  title?: string
  /**
   * Where the run's results file goes (relative to the vitest root), with
   * `.shard-<i>-of-<n>` before the extension under `vitest --shard i/n`;
   * `false`: write none. Default: `"<traceDir>/results/results.json"`.
   * @example { results: 'artifacts/agent-results.json' }
   */
  results?: string | false
  /**
   * Under GitHub Actions, append the run's agent tests as Markdown to the
   * job summary (`$GITHUB_STEP_SUMMARY`) and print an `::error` annotation
   * for each failing one. Default: on when `GITHUB_ACTIONS=true`.
   * @example { githubActions: false }
   */
  githubActions?: boolean
}

const OPTION_NAMES = ['traceDir', 'report', 'title', 'results', 'githubActions']

function checkOptions(options: unknown): ReagentReporterOptions {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`reagent-flow/vitest/reporter options must be an object such as { report: 'reagent-report.html' }, got ${JSON.stringify(options)}.`)
  }
  for (const [key, value] of Object.entries(options)) {
    if (!OPTION_NAMES.includes(key)) throw new TypeError(`Unknown reagent-flow/vitest/reporter option "${key}". Valid options: ${OPTION_NAMES.join(', ')}.`)
    if (key === 'results' && value === false) continue
    if (key === 'githubActions') {
      if (value === undefined || typeof value === 'boolean') continue
      throw new TypeError(`reagent-flow/vitest/reporter option "githubActions" must be true or false, got ${JSON.stringify(value) ?? typeof value}.`)
    }
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      const valid = key === 'results' ? 'a non-empty string (a path) or false' : 'a non-empty string'
      throw new TypeError(`reagent-flow/vitest/reporter option "${key}" must be ${valid}, got ${JSON.stringify(value) ?? typeof value}.`)
    }
  }
  return options as ReagentReporterOptions
}

export default class ReagentReporter implements Reporter {
  readonly #traceDir: string
  readonly #options: ReagentReporterOptions
  #vitest: Vitest | undefined
  /** When the current run started, epoch seconds. */
  #startedAt = Date.now() / 1000

  constructor(options?: ReagentReporterOptions) {
    this.#options = checkOptions(options)
    this.#traceDir = this.#options.traceDir ?? DEFAULT_TRACE_DIR
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
    // The tests' workers then leave the goldens they write to this summary, as vitest's snapshots do.
    vitest.provide('reagentFlowReporter', true)
  }

  onTestRunStart(): void {
    this.#startedAt = Date.now() / 1000
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): Promise<void> {
    const vitest = this.#vitest
    if (vitest === undefined || reason === 'interrupted') return
    this.#summarize(vitest, modules)
    const github = this.#options.githubActions ?? isGitHubActions()
    if (this.#options.results !== false || github) {
      const results = resultsOfRun(vitest, modules, this.#startedAt)
      if (this.#options.results !== false) this.#writeResults(vitest, results)
      if (github) reportToGitHubActions(vitest, results)
    }
    const { report, title } = this.#options
    if (report !== undefined)
      vitest.logger.log(writeReportAtEnd(vitest.config.root, { report, dir: this.#traceDir, ...(title === undefined ? {} : { title }) }))
  }

  #writeResults(vitest: Vitest, results: RunResults): void {
    const path = resultsFilePath(vitest.config.root, this.#traceDir, this.#options.results || undefined, results.shard)
    try {
      writeResultsFile(path, results)
    } catch (error) {
      // The run itself is not at fault: say why its results file is missing, and let vitest report the tests.
      vitest.logger.error(`reagent-flow: the run's results file was not written: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  async #summarize(vitest: Vitest, modules: ReadonlyArray<TestModule>): Promise<void> {
    /** Calls dropped, per pruned recording. */
    const pruned = new Map<string, number>()
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const ours = (test.meta() as Record<string, unknown>)[META_KEY] as ReagentTaskMeta | undefined
        for (const { path, calls } of ours?.pruned ?? []) pruned.set(path, (pruned.get(path) ?? 0) + calls)
      }
    }
    const update = resolveUpdateMode({ vitestUpdate: vitest.config.snapshotOptions.updateSnapshot === 'all' ? 'all' : undefined })
    const allFiles = new Set((await vitest.globTestSpecifications()).map((spec) => resolve(spec.moduleId)))
    const log = (line: string): void => vitest.logger.log(line)
    const root = resolve(vitest.config.root, this.#traceDir)
    const kinds = FILE_KINDS.map((kind) => ({ kind, files: filesOf(kind, { root, modules, update, allFiles, projectRoot: vitest.config.root }) }))
    for (const { kind, files } of kinds) logSummary(log, kind, files)
    if (pruned.size > 0) logPruned(log, pruned)
    for (const { kind, files } of kinds) logObsolete(log, kind, files)
  }
}

/** The summary line of pruned recordings (aligned with vitest's own), and each one with the calls it dropped. */
function logPruned(log: (line: string) => void, pruned: ReadonlyMap<string, number>): void {
  const calls = [...pruned.values()].reduce((sum, n) => sum + n, 0)
  log(`  Recordings  ${pruned.size} pruned (${calls} recorded call${calls === 1 ? '' : 's'} no longer made)`)
  for (const [path, n] of pruned) log(`  pruned ${n} recorded call${n === 1 ? '' : 's'} from ${shownPath(path)}`)
}
