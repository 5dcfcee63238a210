/**
 * The features every session is opened with, in their order: the one place
 * that order is written. A feature attaches in this order, and each event of
 * the session's lifecycle reaches the features in this order, so:
 *
 * - run files first: at `opened` the journal exists before replay hands it
 *   the steps to keep; at `closing` the journal is flushed before replay
 *   writes the recording (long synchronous work, during which the journal's
 *   timer cannot run); at `closed` the trace file is written before anyone
 *   reads `session.path`.
 * - replay before the ledger: a bad REAGENT_REPLAY or recording throws
 *   before run.begin is sent (and, as every refusal at attach, before any
 *   file is opened).
 * - limits before faults: a call past a limit is refused as a budget stop,
 *   not as an injected fault.
 * - the ledger after the files (journal before ledger, the trace written
 *   before it is uploaded: a ledger that is down never costs the trace) and
 *   before golden, whose comparison may throw (a bad REAGENT_UPDATE): the
 *   ledger always hears that the run ended.
 * - golden last: it marks the trace `golden: true` at `closing`, before the
 *   file is written, and compares once the file is written (its path is in
 *   the result).
 */
import { faultsFeature } from '../faults/session-feature.js'
import { ledgerFeature } from '../ledger/session-feature.js'
import { limitsFeature } from '../limits/session-feature.js'
import { replayFeature } from '../replay/session-feature.js'
import { runFilesFeature } from '../session/files-feature.js'
import type { SessionFeature } from '../session/session.js'
import { goldenFeature } from './golden-feature.js'

export const SESSION_FEATURES: readonly SessionFeature[] = [runFilesFeature, replayFeature, limitsFeature, faultsFeature, ledgerFeature, goldenFeature]
