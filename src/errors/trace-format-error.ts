import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** A trace file (or value) is not JSON, or does not follow trace format "1". */
export class TraceFormatError extends ReagentError {
  override name = 'TraceFormatError' as const
  /** The file that was read, or `"<value>"` when validating an in-memory value. */
  readonly file: string
  /** JSON path of the first offending value, e.g. `turns[0].tool_results[1].call_id`; `""` is the root. */
  readonly jsonPath: string
  /** The schema rule that was broken (`required`, `type`, `additionalProperties`, ...) or `json` for a parse error. */
  readonly rule: string
  /** What is wrong there, in words: `missing required key "name"`, `the file is not JSON (...)`. */
  readonly detail: string

  constructor(file: string, jsonPath: string, rule: string, detail: string, options?: ErrorOptions) {
    const where = jsonPath === '' ? 'the top level' : jsonPath
    // A file too large or in another layout is not broken: its detail says what to do instead.
    const advice =
      rule === 'size' || rule === 'layout' ? '' : ' Fix or delete the file, or record it again; the format is described by reagent-flow/schema.json.'
    super(`${file} is not a valid reagent-flow trace: at ${where}: ${detail} (rule: ${rule}).${advice}`, options)
    this.file = file
    this.jsonPath = jsonPath
    this.rule = rule
    this.detail = detail
  }
}

/**
 * True for a `TraceFormatError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isTraceFormatError(value: unknown): value is TraceFormatError {
  return isReagentErrorNamed(value, 'TraceFormatError')
}
