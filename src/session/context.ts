/**
 * The one AsyncLocalStorage of reagent-flow.
 *
 * The store lives on `globalThis` under a registry symbol, so every copy of
 * this module in a process (the built package and an adapter resolved from a
 * different path, a test importing sources next to a dependency importing
 * `dist/`) shares it. Two stores would mean an adapter that silently records
 * nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { ModelCall } from '../adapter-support/model-call.js'
import type { Session } from './session.js'
import type { JsonObject } from '../trace/types.js'

const STORE_KEY = Symbol.for('reagent-flow.context.v1')
const TEST_KEY = Symbol.for('reagent-flow.test-scope.v1')
const CALL_KEY = Symbol.for('reagent-flow.model-call.v1')
const PROBE_KEY = Symbol.for('reagent-flow.unscoped-test-probe.v1')
type Holder = {
  [STORE_KEY]?: AsyncLocalStorage<Session>
  [TEST_KEY]?: AsyncLocalStorage<TestScope>
  [CALL_KEY]?: AsyncLocalStorage<ModelCall>
  [PROBE_KEY]?: () => void
}

const holder = globalThis as Holder
const store = (holder[STORE_KEY] ??= new AsyncLocalStorage<Session>())
const testStore = (holder[TEST_KEY] ??= new AsyncLocalStorage<TestScope>())
const callStore = (holder[CALL_KEY] ??= new AsyncLocalStorage<ModelCall>())

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
  readonly openSessions: Set<Session>
  /** How many sessions of each key were opened in this test, so a second one gets ` #2`. */
  readonly keys: Map<string, number>
  /** `'all'` when the test runner was asked to update (vitest -u), read when asked; else the update mode is REAGENT_UPDATE's or CI's. */
  update(): 'all' | undefined
  /** Tells the test runner how a golden of this test ended (the run's summary and obsolete goldens come from these). */
  recordGolden(entry: GoldenEntry): void
  /** Tells the test runner that a session of this test pruned its recording (`replay: 'prune'`), for the run's summary. */
  recordPruned(entry: PrunedEntry): void
  /** When this test fails, shows `explain()` with its failure (what an agent's trace says about it); `explain` gets the messages of the test's errors, which vitest shows. */
  explainFailure(explain: (testErrors: readonly string[]) => string): void
}

/** One golden compared or written in a test. */
export interface GoldenEntry {
  /** The golden file, absolute. */
  path: string
  outcome: 'matched' | 'written' | 'updated' | 'reformatted' | 'unchanged' | 'failed' | 'missing'
}

/** A recording a session of a test pruned: the recorded calls its run no longer made were dropped. */
export interface PrunedEntry {
  /** The recording file, absolute. */
  path: string
  /** How many recorded calls were dropped. */
  calls: number
}

/** Runs `fn` (a test) with `scope` as the test every session opened inside it belongs to. */
export function runInTestScope<T>(scope: TestScope, fn: () => T): T {
  return testStore.run(scope, fn)
}

/** The test the current code runs in, when `reagent-flow/vitest` is loaded; undefined elsewhere. */
export function currentTestScope(): TestScope | undefined {
  return testStore.getStore()
}

/**
 * The test a session opens in; outside a test scope, the probe
 * `reagent-flow/vitest` set is asked whether that is a test it failed to
 * wrap (it warns). See `setUnscopedTestProbe`.
 */
export function testScopeOfSession(): TestScope | undefined {
  const scope = testStore.getStore()
  if (scope === undefined) holder[PROBE_KEY]?.()
  return scope
}

/** Set by `reagent-flow/vitest` (once per worker): called when a session opens outside any test scope. */
export function setUnscopedTestProbe(probe: () => void): void {
  holder[PROBE_KEY] = probe
}

/** Runs `fn` with `session` as the active session of everything it awaits or schedules. */
export function runInSession<T>(session: Session, fn: () => T): T {
  return store.run(session, fn)
}

/** Runs `fn` outside every session: a session it opens is nobody's child, and nothing it does is recorded into an enclosing one. */
export function runOutsideSessions<T>(fn: () => T): T {
  return store.exit(fn)
}

/** The innermost open session, or undefined outside one. Adapters record into it. */
export function currentSession(): Session | undefined {
  const active = store.getStore()
  // A session stays in the async context of timers and callbacks it started;
  // once it has closed, it no longer counts as the current one.
  return active === undefined || active.closed ? undefined : active
}

/**
 * Runs `fn` (an SDK method making a model call) with `call` as the call its
 * HTTP requests are attempts of: an instrumented client's `fetch` asks it,
 * per attempt, whether an injected fault answers (see recorded-fetch.ts).
 */
export function runInModelCall<T>(call: ModelCall, fn: () => T): T {
  return callStore.run(call, fn)
}

/** The model call whose SDK method the current code runs in (see runInModelCall), while it is open. */
export function currentModelCall(): ModelCall | undefined {
  const call = callStore.getStore()
  return call === undefined || call.isRecorded ? undefined : call
}

export interface RunContext {
  /** The active session's trace_id (a ULID). */
  runId: string | undefined
  sessionId: string | undefined
  userId: string | undefined
  metadata: JsonObject
}

/**
 * Identifiers of the active session, for logs and for propagating to other
 * services. Outside a session every field is undefined and metadata is `{}`;
 * it never throws.
 */
export function getRunContext(): RunContext {
  const active = currentSession()
  if (active === undefined) return { runId: undefined, sessionId: undefined, userId: undefined, metadata: {} }
  const { trace } = active
  return {
    runId: trace.trace_id,
    sessionId: trace.session_id ?? undefined,
    userId: trace.user_id ?? undefined,
    metadata: { ...trace.metadata },
  }
}
