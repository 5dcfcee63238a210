/**
 * `resume(name, opts, fn)`: run `fn` again after a run of `name` (same
 * `sessionId` and `userId`) ended failed, cancelled or interrupted. Each step
 * is keyed, as the loomflow runtime's journal keys it, on the session and
 * user, the run, the step's name and its inputs: a model call or `traceTool`
 * call that matches a step the previous run completed is answered from it
 * without running; every other step runs live.
 */
import { session, type Session, type SessionFn } from '../run/session.js'
import type { SessionOptions } from '../run/options.js'
import { RESUME } from '../session/options.js'

/**
 * Runs `fn` in a session named `name` that resumes the last run of that
 * name (and `sessionId`/`userId`) which ended failed, cancelled or
 * interrupted (also by a SIGKILL): the model calls and `traceTool` runs it
 * completed are answered from its journal, the rest run live. The trace
 * names that run (`resumed_from`) and how many steps were replayed
 * (`replayed_steps`). After a run that completed, or with nothing to
 * resume, it warns once and runs fresh. Same signature as `session()`.
 *
 * @example
 * const s = await resume('nightly-report', { sessionId: 'job-2026-05-08' }, () => runReport())
 * s.trace.resumed_from // the trace_id of the run that failed
 */
export function resume<T>(name: string, fn: SessionFn<T>): Promise<Session<T>>
export function resume<T>(name: string, options: SessionOptions, fn: SessionFn<T>): Promise<Session<T>>
export function resume<T>(name: string, optionsOrFn: SessionOptions | SessionFn<T>, maybeFn?: SessionFn<T>): Promise<Session<T>> {
  if (typeof optionsOrFn === 'function') return session(name, { [RESUME]: true } as SessionOptions, optionsOrFn)
  if (optionsOrFn === null || typeof optionsOrFn !== 'object' || Array.isArray(optionsOrFn)) {
    // session() explains what is wrong with the options.
    return session(name, optionsOrFn, maybeFn as SessionFn<T>)
  }
  return session(name, { ...optionsOrFn, [RESUME]: true } as SessionOptions, maybeFn as SessionFn<T>)
}
