/**
 * The runs that serve a session without being its agent: the simulated
 * user of a conversation, the simulated tools' model, the judges that grade
 * it. Each is a child session of its own (`<name> > user`, `<name> > tools`,
 * `<name> > judge`), so the agent's trace, budgets and golden stay about the
 * agent; the owner keeps a list of them here so `s.spend()` can tell the
 * bill apart (agent, user, judge, tools).
 */
import { HELPER_RUNS, type HelperRole } from './helper-run-list.js'
import { internals } from './internals.js'
import type { Session } from './session.js'

export type { HelperRole } from './helper-run-list.js'

/** One helper run of a session. */
export interface HelperRun {
  role: HelperRole
  session: Session
}

/** Counts `helper` as a `role` run of `owner` (a judge may be added after `owner` closed). */
export function addHelperRun(owner: Session, role: HelperRole, helper: Session): void {
  const inner = owner[internals]
  const runs = inner.get(HELPER_RUNS)
  if (runs === undefined) inner.set(HELPER_RUNS, [{ role, session: helper }])
  else runs.push({ role, session: helper })
}

/** The helper runs of `owner`, in the order they were added. */
export function helperRunsOf(owner: Session): readonly HelperRun[] {
  // Only addHelperRun adds to the list, always with a Session.
  return (owner[internals].get(HELPER_RUNS) as HelperRun[] | undefined) ?? []
}
