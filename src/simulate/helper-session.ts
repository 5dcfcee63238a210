/**
 * Opens the helper run of a session (see session/helper-runs.ts): a child
 * session `<name> > <role>` of the agent's session, in the same trace
 * directory, redacted as it is, taking its replay options (so a simulated
 * user's model calls are recorded and replayed with the agent's), counted
 * in the agent's `spend()`. Code run through `inHelper` records into it,
 * not into the agent's trace.
 */
import { openChildSession, runInSession, type ChildSession } from '../adapter-support/index.js'
import { addHelperRun, type HelperRole } from '../session/helper-runs.js'
import type { Session } from '../session/session.js'
import type { JsonObject } from '../trace/types.js'

export interface HelperSession {
  readonly session: Session
  /** Runs `fn` with the helper as the current session: an instrumented client called in it records there. */
  run<T>(fn: () => T): T
  /** Ends the helper: completed, or failed with `error`. Resolves once its trace is written; only the first call counts. */
  close(error?: unknown): Promise<void>
}

/**
 * Opens `<owner name> > <role>` as a child of `owner` (which must be open).
 * `whenOwnerCloses`: how it ends if `owner` closes first. Undefined when the
 * child cannot be opened (a name that leaves nothing for a file name).
 */
export function openHelperSession(
  owner: Session,
  role: HelperRole,
  metadata: JsonObject,
  whenOwnerCloses: 'failed' | 'completed',
): HelperSession | undefined {
  // Opened in the owner's context: the child takes it as parent, with its replay options.
  const child: ChildSession | undefined = runInSession(owner, () =>
    openChildSession(owner, `${owner.name} > ${role}`, {
      handoffContext: null,
      metadata: { reagent_role: role, ...metadata },
      whenParentCloses: whenOwnerCloses,
    }),
  )
  if (child === undefined) return undefined
  addHelperRun(owner, role, child.session)
  return {
    session: child.session,
    run: (fn) => runInSession(child.session, fn),
    close: (error) => child.close(error),
  }
}
