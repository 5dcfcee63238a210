/**
 * A trace sent with trace.put: checked against the trace schema (a bad one is
 * a 422 naming the JSON path inside `trace` and the rule) and passed through
 * the redaction the storage layer applies to every trace it writes (the
 * built-in secret shapes), so what a test machine uploads is stored as its
 * local file would be.
 */
import { TraceFormatError } from '../errors/index.js'
import { redactForDisk } from '../redact/index.js'
import type { Trace } from '../trace/types.js'
import { validateTrace } from '../trace/validate.js'
import { LedgerRequestError } from './errors.js'

export function checkUploadedTrace(value: unknown): Trace {
  let trace: Trace
  try {
    trace = validateTrace(value, 'trace')
  } catch (error) {
    if (!(error instanceof TraceFormatError)) throw error
    const field = error.jsonPath === '' ? 'trace' : error.jsonPath.startsWith('[') ? `trace${error.jsonPath}` : `trace.${error.jsonPath}`
    throw new LedgerRequestError('invalid_input', `trace.put: ${field} ${error.detail} (rule: ${error.rule}); the trace must be in trace format "1"`, {
      field,
      rule: error.rule,
    })
  }
  return redactForDisk(trace, undefined)
}
