/**
 * The ledger reporter as a feature of the session (session-reporter.ts):
 * run.begin as the session opens (a bad `ledger` option is a TypeError
 * there, before any file is opened), run.complete and the trace once its
 * file is written (a ledger that is slow or down never costs the trace).
 * `session()` waits for none of it: the sends are handed off
 * (session/handed-off.ts), a test file's end waits for them within a bound,
 * and a run still unsent when the process exits is kept in the outbox.
 *
 * The reporter (its HTTP client, gzip, git) is loaded only for a session that
 * has a ledger to report to, by an `import()` as it opens: what run.begin
 * sends is taken then.
 */
import { handOff } from '../session/handed-off.js'
import { internals } from '../session/internals.js'
import type { RecordingOptions } from '../session/options.js'
import type { Session, SessionFeature } from '../session/session.js'
import { type LedgerOption, resolveLedger } from './ledger-option.js'
import { openedRun } from './opened-run.js'
import { outboxOf } from './outbox.js'

export interface LedgerOptions {
  /**
   * Report the run to a run ledger (`reagent-flow serve`): run.begin when the
   * session opens, run.complete and the trace when it closes, never waited
   * for. A ledger that is down warns once and never fails the test; the run
   * is kept in `<traceDir>/ledger-outbox/` for `reagent-flow ledger push`. Default: `REAGENT_LEDGER_URL`
   * (with `REAGENT_LEDGER_TOKEN`), if set; `false`: never.
   * @example { ledger: 'http://127.0.0.1:4319' }
   */
  ledger?: LedgerOption
}

export const ledgerFeature: SessionFeature = {
  attach(session: Session, options: RecordingOptions & LedgerOptions): void {
    const inner = session[internals]
    const ledger = resolveLedger(options.ledger)
    if (ledger === undefined) return
    // Git is asked for the revision at the vitest root (else the working directory).
    const root = inner.testScope?.root
    const opened = openedRun(inner.trace)
    // `save: false` writes nothing to disk, and so keeps no unsent run either.
    const outbox = options.save === false ? undefined : outboxOf(inner.location.traceDir)
    const report = import('./session-reporter.js').then((reporter) => reporter.startLedgerReport(opened, ledger, options.redact, root, outbox))
    // Never throws; heard before the golden, which may throw (a bad REAGENT_UPDATE), so the ledger always hears that the run ended.
    inner.lifecycle.on('closed', (trace) =>
      handOff(
        report.then((started) => started.finish(trace, options.redact)),
        trace.trace_id,
      ),
    )
  },
}
