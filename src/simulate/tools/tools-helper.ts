/**
 * The helper session `<agent session name> > tools` where simulated tools'
 * models are asked: one per agent session, shared by all its simulated
 * tools, opened on the first call that asks a model, completed when the
 * agent's session closes. Their calls are recorded and replayed there, with
 * the agent's replay options, and stay out of the agent's trace and budget.
 */
import type { Session } from '../../session/session.js'
import { openHelperSession, type HelperSession } from '../helper-session.js'

const helpers = new WeakMap<Session, HelperSession | undefined>()

/**
 * Runs `fn` in the tools helper of `owner` (opened now if it is the first
 * call), or in `owner` itself when no helper can be opened (a session name
 * that leaves nothing for a file name), so the call is still recorded.
 */
export function runInToolsHelper<T>(owner: Session, fn: () => T): T {
  if (!helpers.has(owner)) helpers.set(owner, openHelperSession(owner, 'tools', {}, 'completed'))
  const helper = helpers.get(owner)
  return helper === undefined ? fn() : helper.run(fn)
}
