/**
 * Model calls whose response has not ended yet, per session. A call the
 * session outlives (a stream nobody read to its end, a call nobody awaited)
 * is cut short when the session closes: recorded with what had arrived and
 * `SESSION_CLOSED` as its error, the same in every adapter.
 *
 * One before-close hook per session, however many calls it makes, and a call
 * leaves the registry as soon as it is recorded, so nothing here outlives it.
 */
import type { Session } from '../session/session.js'
import { internals } from '../session/internals.js'

/** The error of a call cut short by the end of its session. */
export const SESSION_CLOSED = 'the session closed before this response was read to its end; await every model call (and read every stream) inside the session'

/** Records the call with what arrived and `reason`; a promise when it waits for work that may still end the call. */
type CutShort = (reason: string) => unknown

interface OpenCall {
  cutShort: CutShort
}

const openBySession = new WeakMap<Session, Set<OpenCall>>()

/** Cuts the calls short one at a time, in the order they started, each once (a call opened meanwhile too). */
async function cutShortAll(calls: Set<OpenCall>): Promise<void> {
  for (const call of calls) {
    calls.delete(call)
    await call.cutShort(SESSION_CLOSED)
  }
}

function openCallsOf(s: Session): Set<OpenCall> {
  let open = openBySession.get(s)
  if (open === undefined) {
    const calls = new Set<OpenCall>()
    openBySession.set(s, calls)
    s[internals].beforeClose(() => cutShortAll(calls))
    open = calls
  }
  return open
}

/**
 * Registers a call of `s` whose response is on its way. If the session
 * closes first, `cutShort(SESSION_CLOSED)` records it (it must not throw:
 * record through `recordSafely`); the session waits for a promise it
 * returns. Returns `done`: call it once the call is recorded, whichever way.
 */
export function openCall(s: Session, cutShort: CutShort): () => void {
  const open = openCallsOf(s)
  const call = { cutShort }
  open.add(call)
  return () => void open.delete(call)
}
