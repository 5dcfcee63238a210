/**
 * The AsyncLocalStorages of the open session and of the vitest test (the
 * model call an SDK method makes has its own, in
 * adapter-support/model-call-context.ts, kept the same way).
 *
 * The store lives on `globalThis` under a registry symbol, so every copy of
 * this module in a process (the built package and an adapter resolved from a
 * different path, a test importing sources next to a dependency importing
 * `dist/`) shares them. Two stores would mean an adapter that silently records
 * nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Session } from './session.js'
import type { JsonObject } from '../trace/types.js'
import type { TestScope } from './test-scope.js'

const STORE_KEY = Symbol.for('reagent-flow.context.v1')
const TEST_KEY = Symbol.for('reagent-flow.test-scope.v1')
const PROBE_KEY = Symbol.for('reagent-flow.unscoped-test-probe.v1')
type Holder = {
  [STORE_KEY]?: AsyncLocalStorage<Session>
  [TEST_KEY]?: AsyncLocalStorage<TestScope>
  [PROBE_KEY]?: () => void
}

const holder = globalThis as Holder
const store = (holder[STORE_KEY] ??= new AsyncLocalStorage<Session>())
const testStore = (holder[TEST_KEY] ??= new AsyncLocalStorage<TestScope>())

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
