/**
 * The ledger reporter as a feature of the session (session-reporter.ts):
 * run.begin as the session opens (a bad `ledger` option is a TypeError
 * there, before any file is opened), run.complete and the trace once its
 * file is written (a ledger that is slow or down never costs the trace),
 * which `session()` waits for before it resolves.
 *
 * The reporter (its HTTP client, gzip, git) is loaded only for a session that
 * has a ledger to report to, by an `import()` as it opens: what run.begin
 * sends is taken then, and `session()` sends it before the session's
 * function runs.
 */
import { internals } from '../session/internals.js'
import type { RecordingOptions } from '../session/options.js'
import type { Session, SessionFeature } from '../session/session.js'
import { type LedgerOption, resolveLedger } from './ledger-option.js'
import { openedRun } from './opened-run.js'

export interface LedgerOptions {
  /**
   * Report the run to a run ledger (`reagent-flow serve`): run.begin when the
   * session opens, run.complete and the trace when it closes. A ledger that is
   * down warns once and never fails the test. Default: `REAGENT_LEDGER_URL`
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
    const report = import('./session-reporter.js').then((reporter) => reporter.startLedgerReport(opened, ledger, options.redact, root))
    // run.begin is sent before the session's function runs, as it was when the reporter was loaded with the package.
    inner.beforeRun(report)
    // Never throws; heard before the golden, which may throw (a bad REAGENT_UPDATE), so the ledger always hears that the run ended.
    inner.lifecycle.on('closed', (trace) => inner.afterClose(report.then((started) => started.finish(trace, options.redact))))
  },
}
