/**
 * `session()` never waits for its ledger (decision 081): run.complete and
 * trace.put go on after it resolved. A caller that reads its run back from
 * the ledger (a test of the reporting itself, a script that prints the run's
 * cost) waits for them here. It never rejects: a send that failed was warned
 * about once and kept in the outbox, as without it.
 */
import { handedOffSettled } from '../session/handed-off.js'

/**
 * Resolves once what `session` (a session `session()` resolved to, or its
 * trace id) sent to its ledger was answered, or failed and was kept in the
 * outbox; every session's sends when called without one. A session without
 * a ledger resolves at once. The sends' own timeouts (`ledger.timeoutMs`)
 * bound the wait.
 *
 * @example
 * const s = await session('refund', { ledger: url }, agent)
 * await ledgerSent(s)
 * const { run } = await client.get(s.trace.trace_id)
 */
export function ledgerSent(session?: { trace: { trace_id: string } } | string): Promise<void> {
  return handedOffSettled(typeof session === 'string' ? session : session?.trace.trace_id)
}
