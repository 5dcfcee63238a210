/**
 * The one place reagent-flow warns. Warnings go through `process.emitWarning`
 * with type `ReagentWarning`, so they show up once in test output, can be
 * silenced with `--no-warnings`, and can be observed with
 * `process.on('warning', ...)`.
 */
import { redactForDisk } from '../redact/for-disk.js'

/** Stable codes, for filtering: `warning.code === 'REAGENT_VALUE'`. */
export type ReagentWarningCode =
  | 'REAGENT_VALUE' // a value was not plain JSON and got a stand-in
  | 'REAGENT_ORPHAN_RESULT' // a tool result matched no pending call
  | 'REAGENT_ADAPTER' // an adapter could not record a call (the call itself went on)
  | 'REAGENT_DUPLICATE_RESULT' // a second result arrived for a call that already has one
  | 'REAGENT_WRITE' // the trace (or its journal) could not be written
  | 'REAGENT_DROPPED' // a log call reached a session closed from outside (a signal, a test timeout) and was dropped
  | 'REAGENT_READ' // a file in a trace directory is not a readable trace and was skipped
  | 'REAGENT_ASSERTION' // an assertion skipped part of the trace (no token usage, unpriced model)
  | 'REAGENT_LEDGER' // a session could not report its run to the run ledger (its trace is still written)
  | 'REAGENT_REPLAY' // a replayed session left recorded calls unused (or prune dropped them), or a request could not be recorded
  | 'REAGENT_RESUME' // resume() found no failed, cancelled or interrupted run to resume, and ran fresh
  | 'REAGENT_LIMITS' // a run's limits could not count a call (no token usage, an unpriced model)
  | 'REAGENT_TEST_SCOPE' // a session opened in a vitest test file whose tests reagent-flow/vitest does not wrap

/**
 * Emits `message` as a ReagentWarning, redacted by the built-in rules first:
 * warnings quote what they are about (a session's name, a URL, an error's
 * message), land in CI logs, and must not carry a secret there either.
 */
export function warn(code: ReagentWarningCode, message: string): void {
  process.emitWarning(`reagent-flow: ${redactForDisk(message)}`, { type: 'ReagentWarning', code })
}
