/**
 * What the adapter remembers per session: the calls still waiting for their
 * response, recorded with what arrived when the session closes first (after
 * the session has waited for the response copies the adapter reads itself).
 *
 * Kept in a WeakMap so a finished session and everything here is collected
 * together.
 */
import type { Session } from '../../src/adapter-support.js'

/** A call whose recording is not finished yet. */
export interface OpenCall {
  /** Records the call with what has arrived so far and `reason` as its error. */
  cutShort(reason: string): void
}

export interface AdapterState {
  readonly open: Set<OpenCall>
}

const states = new WeakMap<Session, AdapterState>()

export const SESSION_CLOSED =
  'the session closed before this response was read to its end; await every model call (and read every stream) inside the session'

export function stateOf(session: Session): AdapterState {
  let state = states.get(session)
  if (state === undefined) {
    const created: AdapterState = { open: new Set() }
    states.set(session, created)
    session.beforeClose(() => {
      for (const call of [...created.open]) call.cutShort(SESSION_CLOSED)
    })
    state = created
  }
  return state
}
