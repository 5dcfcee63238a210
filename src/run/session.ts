/**
 * `session(name, opts, fn)`: run agent code with a recorder in scope, then
 * finalise and write its trace, whatever way `fn` ends. A session opened
 * here, or with `new Session(...)`, has every feature of SESSION_FEATURES
 * (features.ts).
 */
import { STEPS } from '../replay/session-feature.js'
import { currentSession, runInSession, testScopeOfSession } from '../session/context.js'
import { internals, type Outcome } from '../session/internals.js'
import { checkOptions, type SessionOptions } from './options.js'
import { Session as RecordingSession } from '../session/session.js'
import { sanitizeName } from '../storage/index.js'
import type { JsonObject } from '../trace/types.js'
import { SESSION_FEATURES } from './features.js'
import { goldenFailureOf } from './golden-feature.js'

/**
 * The Session of a run: a recorder with the trace assertions (see
 * session/session.ts), opened with every feature. `parent` defaults to the
 * session this one is opened inside; `traceFields` are extra top-level
 * fields of the trace (a repeated run's `repeat`), there before any file is written.
 */
export class Session<T = unknown> extends RecordingSession<T> {
  constructor(
    name: string,
    options: SessionOptions = {},
    parent: RecordingSession<unknown> | undefined = currentSession(),
    traceFields?: Readonly<JsonObject>,
  ) {
    // The name first: a bad one is refused before the test scope is asked for (its probe may warn).
    sanitizeName(name)
    super(name, options, parent, traceFields, { features: SESSION_FEATURES, testScope: testScopeOfSession() })
  }
}

/**
 * The function a session runs. Its parameter is a plain `Session` (its
 * output is not known while it runs): were it `Session<T>`, TypeScript would
 * fix `T` as `unknown` before reading the return type of `async (s) => ...`.
 */
export type SessionFn<T> = (session: Session) => T | PromiseLike<T>

/**
 * The Session `session()` resolves to. It resolves only when the function
 * returned (it rejects with the function's error otherwise), so `output` is
 * what the function returned, typed `T`.
 */
export type ClosedSession<T> = Session<T> & { readonly output: T }

/**
 * Runs `fn` inside a recording session named `name` and resolves to the
 * closed Session. The trace is finalised and written when `fn` settles; when
 * `fn` throws, the trace is written with status "failed" (or "cancelled" for
 * an AbortError) and the original error is rethrown unchanged.
 *
 * @example
 * const s = await session('refund-agent', async (s) => runAgent('Refund order 42'))
 * s.assertCalled('issue_refund')
 */
export function session<T>(name: string, fn: SessionFn<T>): Promise<ClosedSession<T>>
export function session<T>(name: string, options: SessionOptions, fn: SessionFn<T>): Promise<ClosedSession<T>>
export async function session<T>(name: string, optionsOrFn: SessionOptions | SessionFn<T>, maybeFn?: SessionFn<T>): Promise<ClosedSession<T>> {
  const fn = typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn
  if (typeof fn !== 'function') {
    throw new TypeError(`session(${JSON.stringify(name)}, ...) needs a function to run, as its last argument.`)
  }
  if (typeof name !== 'string') throw new TypeError(`session() needs a name string first, got ${typeof name}.`)
  const options = checkOptions(typeof optionsOrFn === 'function' ? undefined : optionsOrFn)
  const run = await runSession(name, options, fn)
  const s = run.session
  if (run.threw) {
    s[internals].explainFailureInTest()
    // The very same value, untouched: what the agent threw is the test's to see.
    throw run.error
  }
  const goldenFailure = goldenFailureOf(s)
  if (goldenFailure !== undefined) throw goldenFailure
  const unused = s[internals].get(STEPS)?.failure
  if (unused !== undefined) throw unused
  return s as ClosedSession<T>
}

/** How a session's function ended: the closed session, and what the function threw, if it did. */
export type SessionRun<T> = { session: Session<T>; threw: false } | { session: Session<T>; threw: true; error: unknown }

/**
 * The work of `session()` with checked options, resolving to how the
 * function ended instead of rethrowing (`repeat` keeps every run, failed or
 * not). `traceFields` are extra top-level fields of the trace.
 */
export async function runSession<T>(name: string, options: SessionOptions, fn: SessionFn<T>, traceFields?: Readonly<JsonObject>): Promise<SessionRun<T>> {
  const s = new Session<T>(name, options, currentSession(), traceFields)
  let outcome: Outcome<T>
  try {
    outcome = { ok: true, output: await runInSession(s as Session<unknown>, () => fn(s)) }
  } catch (error) {
    outcome = { ok: false, error }
  }
  await runInSession(s as Session<unknown>, () => s[internals].close(outcome))
  return outcome.ok ? { session: s, threw: false } : { session: s, threw: true, error: outcome.error }
}
