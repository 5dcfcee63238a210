/**
 * `reagent-flow/files`: where traces live on disk and how to write, check and
 * redact one yourself. Most suites never need it: `session()` writes and
 * `loadTrace` (root export) reads.
 */
export { saveTrace } from '../golden/trace-file.js'
export { tracePath, sanitizeName, DEFAULT_TRACE_DIR } from '../storage/paths.js'
export { validateTrace } from '../trace/validate.js'
export { REDACTED, redactForDisk } from '../redact/index.js'

export type { SaveOptions } from '../golden/trace-file.js'
export type { TraceLocation } from '../storage/paths.js'
export type { RedactOption } from '../redact/index.js'
