/**
 * Every test runs in a test scope (an `aroundEach` hook): the sessions
 * opened inside it know their test, and a session still open when its test
 * ends — it timed out, failed, was aborted, or returned without awaiting
 * the agent — is closed as `cancelled` with the reason, and written, before
 * vitest moves on. vitest does not stop the agent: what it logs afterwards
 * is dropped quietly (one warning), never thrown into a later test.
 *
 * vitest before 4.1 has no `aroundEach`: there, sessions are closed only
 * when their function settles.
 */
import * as vitest from 'vitest'
import { currentTestScope, runInTestScope, setUnscopedTestProbe } from '../session/context.js'
import type { ContractEntry, GoldenEntry, PrunedEntry, TestScope } from '../session/test-scope.js'
import { settleHandedOff } from '../session/handed-off.js'
import { warn } from '../warnings/warnings.js'
import { figuresOf, type SessionFigures } from './session-figures.js'

interface TaskLike {
  name: string
  meta?: Record<string, unknown> | undefined
  fullTestName?: string | undefined
  suite?: TaskLike | undefined
  file?: { name: string; filepath: string } | undefined
  result?: { state?: string; errors?: ReadonlyArray<{ message?: unknown; name?: unknown }> } | undefined
}

interface ContextLike {
  task: TaskLike
  signal?: AbortSignal | undefined
  onTestFailed?: ((handler: () => void) => void) | undefined
}

/** The messages of a failed test's errors, as vitest shows them. */
function errorMessagesOf(task: TaskLike): string[] {
  return (task.result?.errors ?? []).flatMap((error) => (typeof error.message === 'string' ? [error.message] : []))
}

/** What a test scope leaves in its task's meta, for the reporter (reporter.ts) in vitest's main process. */
export interface ReagentTaskMeta {
  goldens: GoldenEntry[]
  /** Tool contracts the test compared or wrote; absent when none was. */
  contracts?: ContractEntry[]
  /** Recordings the test's sessions pruned; absent when none was. */
  pruned?: PrunedEntry[]
  /** Each session of the test, in numbers, in the order they closed (the run's results file); absent when none ran. */
  sessions?: SessionFigures[]
}

export const META_KEY = 'reagentFlow'

/** How long a test file's end waits for the ledger sends its sessions handed off. */
const HANDED_OFF_WAIT_MS = 5000

/** `'all'` when vitest was run with -u. */
function vitestUpdate(): 'all' | undefined {
  const state = vitest.expect.getState() as { snapshotState?: { snapshotUpdateState?: string } }
  return state.snapshotState?.snapshotUpdateState === 'all' ? 'all' : undefined
}

/** The reagent-flow part of a task's meta, made when first written. */
function metaOf(task: TaskLike): ReagentTaskMeta {
  const meta = (task.meta ??= {})
  return (meta[META_KEY] ??= { goldens: [] }) as ReagentTaskMeta
}

type AroundEach = (fn: (runTest: () => Promise<void>, context: ContextLike) => Promise<void>) => void

/** What naming a test reads of a vitest task. */
export interface NamedTask {
  name: string
  /** vitest 4.1 and later: the names of the describe blocks and the test, joined by ` > `. */
  fullTestName?: string | undefined
  suite?: NamedTask | undefined
  file?: unknown
}

/** The test's name with its describe blocks, `refund agent > refunds order 42`; built from the suites where vitest (4.0) has no `fullTestName`. */
export function fullTestName(task: NamedTask): string {
  if (typeof task.fullTestName === 'string') return task.fullTestName
  const names = [task.name]
  // The file is a suite too, named after its path: stop below it.
  for (let suite = task.suite; suite !== undefined && suite !== task.file && suite.file !== suite; suite = suite.suite) {
    names.unshift(suite.name)
  }
  return names.join(' > ')
}

/** The project root: the test file's absolute path without its path relative to the root. */
function rootOf(file: { name: string; filepath: string }): string {
  return file.filepath.endsWith(file.name) ? file.filepath.slice(0, file.filepath.length - file.name.length).replace(/\/$/, '') || '/' : process.cwd()
}

function textOf(value: unknown): string {
  try {
    return value instanceof Error ? value.message : String(value)
  } catch {
    return 'an unreadable error'
  }
}

/** Why a session of a test that ended (or was aborted with `reason`) is being closed. */
export function cancelReason(error: unknown): string {
  const message = textOf(error)
  const timeout = /timed out in (\d+)\s*ms/i.exec(message)
  if (timeout !== null) return `test timed out after ${timeout[1]} ms`
  if ((error as { name?: unknown } | null)?.name === 'TestRunAbortError') return 'the test run was aborted'
  return `test failed: ${message.split('\n')[0]}`
}

function closeOpen(scope: TestScope, reason: string): void {
  for (const session of [...scope.openSessions]) session.closeNow('cancelled', reason)
}

function reasonAfter(task: TaskLike): string {
  const error = task.result?.state === 'fail' ? task.result.errors?.[0] : undefined
  return error === undefined ? 'the test ended before the session closed' : cancelReason(error)
}

/** The test file vitest is collecting or running (its absolute path), if any. */
function currentTestFile(): string | undefined {
  try {
    const file = (vitest.expect.getState() as { testPath?: unknown }).testPath
    return typeof file === 'string' ? file : undefined
  } catch {
    return undefined
  }
}

/** Test files whose tests are wrapped in a test scope, and those already warned about. */
const scopedFiles = new Set<string>()
const warnedFiles = new Set<string>()

/** A session opened outside any test scope: in a test file whose tests are not wrapped, say why and what to do, once per file. */
function warnUnscopedFile(): void {
  const file = currentTestFile()
  if (file === undefined || scopedFiles.has(file) || warnedFiles.has(file)) return
  warnedFiles.add(file)
  warn(
    'REAGENT_TEST_SCOPE',
    `a session was opened in ${file}, whose tests reagent-flow/vitest does not wrap: its runs are not placed under the test file, and a test that times out does not close them. ` +
      `vitest evaluates the modules a setup file imports once per worker (with isolate: false, for its first test file only): name 'reagent-flow/vitest' itself in setupFiles.`,
  )
}

/**
 * Wraps every test of the test file being collected in a test scope. Called
 * by the entry once for each test file (see index.ts).
 */
export function registerTestScope(): void {
  // The sends a session handed off (the ledger's) are waited for as the file ends, within a bound: vitest may
  // end the worker after its last file, and what is unsent by then is kept in the outbox as the process exits.
  vitest.afterAll(() => settleHandedOff(HANDED_OFF_WAIT_MS), HANDED_OFF_WAIT_MS + 1000)
  const aroundEach = (vitest as unknown as { aroundEach?: AroundEach }).aroundEach
  if (typeof aroundEach !== 'function') return
  const file = currentTestFile()
  if (file !== undefined) scopedFiles.add(file)
  setUnscopedTestProbe(warnUnscopedFile)
  try {
    // vitest reads the hook's parameters to know which fixtures it uses: the context must be destructured.
    aroundEach(async (runTest, { task, signal, onTestFailed }) => {
      // Loaded twice (a setup file and a test file): the outer scope already covers the test.
      if (currentTestScope() !== undefined || task.file === undefined) return runTest()
      const scope: TestScope = {
        root: rootOf(task.file),
        file: task.file.name,
        testName: fullTestName(task),
        openSessions: new Set(),
        keys: new Map(),
        update: vitestUpdate,
        recordGolden(entry) {
          metaOf(task).goldens.push(entry)
        },
        recordContract(entry) {
          ;(metaOf(task).contracts ??= []).push(entry)
        },
        goldensSummarized: () => vitest.inject('reagentFlowReporter') === true,
        recordPruned(entry) {
          ;(metaOf(task).pruned ??= []).push(entry)
        },
        recordRun(trace, path) {
          ;(metaOf(task).sessions ??= []).push(figuresOf(trace, path))
        },
        explainFailure(explain) {
          onTestFailed?.(() => console.error(explain(errorMessagesOf(task))))
        },
      }
      const onAbort = (): void => closeOpen(scope, cancelReason(signal?.reason))
      signal?.addEventListener('abort', onAbort, { once: true })
      try {
        await runInTestScope(scope, runTest)
      } finally {
        signal?.removeEventListener('abort', onAbort)
        closeOpen(scope, reasonAfter(task))
      }
    })
  } catch {
    // Loaded outside a test file's collection (a config, a plain script): no test to wrap.
  }
}
