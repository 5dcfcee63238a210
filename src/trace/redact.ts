/**
 * Secret redaction for what is written to disk, as the rest of reagent-flow
 * imports it. The rules live in src/redact/ (see its files); writers call
 * `redactForDisk(value, option)`.
 */
export { redactForDisk, redactForDiskUnchecked, REDACTED } from '../redact/index.js'
export type { RedactOption } from '../redact/index.js'
