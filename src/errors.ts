/**
 * Every error reagent-flow throws on purpose is a `ReagentError`. Each message
 * says what happened, which name or path, and how to fix it; the same facts are
 * kept in typed fields so code can branch on them without parsing text.
 *
 * `name` is set explicitly (not taken from the constructor) so type guards keep
 * working across realms and after minification, as in ky.
 */

// A registry symbol, not a module-local one, so two copies of reagent-flow in
// one process (a CJS/ESM pair, a nested install) still recognise each other.
const brand = Symbol.for('reagent-flow.error')

export class ReagentError extends Error {
  override name: string = 'ReagentError'

  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
  }

  static {
    Object.defineProperty(ReagentError.prototype, brand, { value: true })
  }
}

/** A `log*` call reached a session that has already been finalised. */
export class SessionClosedError extends ReagentError {
  override name = 'SessionClosedError' as const
  readonly sessionName: string
  readonly operation: string

  constructor(sessionName: string, operation: string) {
    super(
      `Cannot ${operation} on session "${sessionName}": it is closed and its trace has been finalised. ` +
        `Record inside the session callback, and await every tool or model call before the callback returns.`,
    )
    this.sessionName = sessionName
    this.operation = operation
  }
}

/** `logToolResult` was given a tool name with two or more pending calls and no call id. */
export class AmbiguousToolCallError extends ReagentError {
  override name = 'AmbiguousToolCallError' as const
  readonly toolName: string
  readonly callIds: readonly string[]

  constructor(toolName: string, callIds: readonly string[]) {
    super(
      `Cannot tell which call of "${toolName}" this result belongs to: ${callIds.length} calls are pending ` +
        `(${callIds.map((id) => `"${id}"`).join(', ')}). Pass { callId } to logToolResult to pick one.`,
    )
    this.toolName = toolName
    this.callIds = callIds
  }
}

/** A trace or golden baseline that was asked for does not exist on disk. */
export class TraceNotFoundError extends ReagentError {
  override name = 'TraceNotFoundError' as const
  readonly path: string
  readonly traceName: string | undefined

  constructor(path: string, hint: string, traceName?: string) {
    super(`No trace file at ${path}. ${hint}`)
    this.path = path
    this.traceName = traceName
  }
}

/** A trace name matches several trace files, so it does not say which one is meant. */
export class AmbiguousTraceError extends ReagentError {
  override name = 'AmbiguousTraceError' as const
  readonly traceName: string
  readonly files: readonly string[]

  constructor(traceName: string, files: readonly string[]) {
    super(
      `The name "${traceName}" matches ${files.length} trace files (${files.join(', ')}). ` +
        `Pass the trace_id of the one you mean instead, or remove the copies.`,
    )
    this.traceName = traceName
    this.files = files
  }
}

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

/** What the file system's error codes mean for someone who has to fix them. */
const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied: make the directory writable by this user, or choose another traceDir',
  EPERM: 'the operation is not permitted: make the directory writable by this user, or choose another traceDir',
  EROFS: 'the file system is read-only: choose a traceDir on a writable disk',
  ENOSPC: 'the disk is full: free some space (old runs in the trace directory can go), then run again',
  EDQUOT: 'the disk quota is used up: free some space, then run again',
  ENOTDIR: 'a part of the path is a file, not a directory: remove or rename that file, or choose another traceDir',
  EISDIR: 'the path is a directory, not a file: remove or rename the directory',
  ELOOP: 'the path goes through a loop of symbolic links: fix or remove the links',
  ENAMETOOLONG: 'the path is too long for the file system: choose a shorter traceDir or a shorter name',
  EMFILE: 'too many files are open in this process: close some, or raise the limit (ulimit -n)',
  ENFILE: 'too many files are open on this machine: close some, or raise the limit',
  EBUSY: 'the file is in use by another program: close it, then run again',
  EIO: 'the disk reported an input/output error: check the disk',
}

/**
 * Reading or writing a file failed in the file system: the message names
 * the path, what was being done, and what the error code means for a fix.
 */
export class TraceFileError extends ReagentError {
  override name = 'TraceFileError' as const
  readonly path: string
  /** What was being done: `write`, `read`, `list`, `remove`. */
  readonly operation: string
  /** The file system's error code (`ENOSPC`, `EACCES`, ...), when it gave one. */
  readonly code: string | undefined

  constructor(path: string, operation: string, cause: unknown) {
    const code = typeof (cause as { code?: unknown })?.code === 'string' ? (cause as { code: string }).code : undefined
    const problem = code === undefined ? undefined : FILE_PROBLEMS[code]
    const raw = cause instanceof Error ? cause.message : String(cause)
    super(`Cannot ${operation} ${path}: ${problem === undefined ? raw : `${problem} (${code})`}.`, { cause })
    this.path = path
    this.operation = operation
    this.code = code
  }
}

/**
 * An assertion about a trace failed. Its message is the agent stack trace (or
 * the formatted diff for baseline comparisons). The name is `AssertionError`
 * so that test runners report it as a failed expectation, not as a crash, and
 * `actual`/`expected` (when set) let them draw their own diff.
 */
export class AgentAssertionError extends ReagentError {
  override name = 'AssertionError' as const
  /** The name of the trace the assertion was about. */
  readonly traceName: string
  /** The failed assertion in one line, e.g. `"lookup" was never called (3 turns, 2 tool calls)`. */
  readonly assertion: string
  readonly actual: unknown
  readonly expected: unknown
  /** Whether `actual` and `expected` are worth a diff (vitest reads this). */
  readonly showDiff: boolean

  constructor(message: string, details: { traceName: string; assertion: string; actual?: unknown; expected?: unknown }) {
    super(message)
    this.traceName = details.traceName
    this.assertion = details.assertion
    this.actual = details.actual
    this.expected = details.expected
    this.showDiff = 'actual' in details && 'expected' in details
  }
}

/**
 * The `reagent-flow` command was called wrongly: an unknown command or
 * option, a bad option value, a missing argument. The CLI prints the message
 * on one line and exits with code 2.
 */
export class UsageError extends ReagentError {
  override name = 'UsageError' as const
}

/** True for any error thrown by reagent-flow, also across module copies and realms. */
export function isReagentError(error: unknown): error is ReagentError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[brand] === true
}

/** A span file that is not OTLP/JSON, or whose spans reagent-flow cannot read as an agent's run. */
export class OtlpFormatError extends ReagentError {
  override name = 'OtlpFormatError' as const
  /** The file (or "spans" for spans handed over in memory). */
  readonly source: string
  /** Where in the document, as a JSON path (`resourceSpans[0].scopeSpans[1].spans[3].traceId`); empty for the whole document. */
  readonly jsonPath: string

  constructor(source: string, jsonPath: string, detail: string) {
    super(`${source}${jsonPath === '' ? '' : ` at ${jsonPath}`}: ${detail}`)
    this.source = source
    this.jsonPath = jsonPath
  }
}

/** An OTLP/HTTP endpoint did not take the exported spans. */
export class OtlpExportError extends ReagentError {
  override name = 'OtlpExportError' as const
  readonly url: string
  /** The HTTP status, or null when no response came (connection refused, timeout). */
  readonly status: number | null

  constructor(url: string, status: number | null, detail: string, options?: ErrorOptions) {
    super(
      `Could not send the spans to ${url}: ${detail}. ` +
        `Check that an OTLP/HTTP receiver (an OpenTelemetry Collector, Jaeger, Tempo, Phoenix, Langfuse) listens there, or write them to a file with --out.`,
      options,
    )
    this.url = url
    this.status = status
  }
}

/** The limits a session can be given (the `limits` option), by name. */
export type LimitName = 'turns' | 'tokens' | 'usd' | 'seconds'

/** What a run that went past a limit was about to do when it was stopped. */
export type StoppedCall = { kind: 'model' } | { kind: 'logged-model' } | { kind: 'tool'; tool: string }

function limitAmount(limit: LimitName, value: number): string {
  switch (limit) {
    case 'turns':
      return value === 1 ? '1 turn' : `${value} turns`
    case 'tokens':
      return `${value} tokens`
    case 'usd':
      return `$${value}`
    case 'seconds':
      return value === 1 ? '1 second' : `${value} seconds`
  }
}

/** The figure that went past the limit, in words; usd and seconds rounded for reading (the exact figure is `actual`). */
function limitFigure(limit: LimitName, actual: number): string {
  switch (limit) {
    case 'turns':
      return `${actual} model calls`
    case 'tokens':
      return `${actual} tokens used`
    case 'usd':
      return `$${Number(actual.toPrecision(3))} spent`
    case 'seconds':
      return `${Number(actual.toFixed(2))} seconds passed`
  }
}

const STOPPED_WHAT: Readonly<Record<StoppedCall['kind'], string>> = {
  model: 'so the model call was not made',
  'logged-model': 'so the run was stopped at the model call just logged',
  tool: 'so tool',
}

const ADVICE: Readonly<Record<LimitName, string>> = {
  turns: 'kept going',
  tokens: 'used so many',
  usd: 'cost so much',
  seconds: 'took so long',
}

/**
 * A run went past one of its limits (the `limits` session option): the
 * next model or tool call throws this instead of being made, and the run is
 * recorded as `cancelled` with `reason` as its `interruption_reason`.
 */
export class BudgetExceededError extends ReagentError {
  override name = 'BudgetExceededError' as const
  readonly sessionName: string
  /** The limit that was passed. */
  readonly limit: LimitName
  /** Its value, as the option gave it. */
  readonly max: number
  /** The figure that went past it: model calls, tokens, USD, seconds. */
  readonly actual: number
  /** The call that was stopped. */
  readonly stopped: StoppedCall
  /** The same in a few words, for the trace's `interruption_reason`: `limits.tokens of 1000 tokens passed (1200 tokens used)`. */
  readonly reason: string

  constructor(sessionName: string, limit: LimitName, max: number, actual: number, stopped: StoppedCall) {
    const what = stopped.kind === 'tool' ? `${STOPPED_WHAT.tool} "${stopped.tool}" was not run` : STOPPED_WHAT[stopped.kind]
    super(
      `Session "${sessionName}" went past its limit of ${limitAmount(limit, max)} (limits.${limit}: ${limitFigure(limit, actual)}), ${what}. ` +
        `Raise limits.${limit}, or look at the trace for why the agent ${ADVICE[limit]}.`,
    )
    this.sessionName = sessionName
    this.limit = limit
    this.max = max
    this.actual = actual
    this.stopped = stopped
    this.reason = `limits.${limit} of ${limitAmount(limit, max)} passed (${limitFigure(limit, actual)})`
  }
}

/**
 * The error an injected tool fault (the `faults` session option) throws in
 * place of running the tool. Its message is the one the fault names (`card
 * declined`), since the agent, and the model it shows the error to, should
 * see what a failing tool would say; `tool` and `injected` tell it apart.
 */
export class ToolFaultError extends ReagentError {
  override name = 'ToolFaultError' as const
  readonly tool: string
  readonly injected = true as const

  constructor(tool: string, message: string) {
    super(message)
    this.tool = tool
  }
}

/**
 * The error an injected model fault (`{ llm: true, status }` in the `faults`
 * session option) fails a model call with where the SDK meets the model at
 * its own layer (LangChain chat models, the Agents SDK's models): the
 * provider's error as a client raises it, with `status`, `headers` (a retry
 * delay of a millisecond) and the provider's `error` body where the SDKs'
 * retry rules read them. The Stainless clients and the AI SDK raise their
 * own error classes instead (README, "Faults and limits").
 */
export class ModelFaultError extends ReagentError {
  override name = 'ModelFaultError' as const
  readonly injected = true as const
  /** The HTTP status the provider would have answered with; undefined for a timeout. */
  readonly status: number | undefined
  readonly headers: Readonly<Record<string, string>>
  /** The provider's error, as OpenAI's error body holds it. */
  readonly error: { message: string; type: string; code: string | null }
  /** The provider's error code (`rate_limit_exceeded`), where LangChain looks for it. */
  readonly code: string | undefined
  /** The model the failed call asked for; null when it named none. */
  readonly model: string | null
  /** `'timeout'` or the status, as the fault gave it. */
  readonly fault: number | 'timeout'

  constructor(init: {
    fault: number | 'timeout'
    model: string | null
    message: string
    headers: Readonly<Record<string, string>>
    error: { message: string; type: string; code: string | null }
  }) {
    super(typeof init.fault === 'number' ? `${init.fault} ${init.message}` : init.message)
    this.fault = init.fault
    this.status = typeof init.fault === 'number' ? init.fault : undefined
    this.headers = init.headers
    this.error = init.error
    this.code = init.error.code ?? undefined
    this.model = init.model
  }
}
