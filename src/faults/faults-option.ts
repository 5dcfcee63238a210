/**
 * The `faults` session option: what it accepts, and its check. A fault names
 * what it breaks (a tool, or the model's calls) and how; `after` and `times`
 * say which calls fail, so a transient failure (the first call) or an outage
 * (every call) is one line each.
 */

/**
 * A tool that fails instead of running: the agent sees the error the tool
 * would have thrown, and the trace marks it as injected.
 *
 * @example { tool: 'charge_card', error: 'card declined' }            // every call fails
 * @example { tool: 'search', error: 'timed out', times: 1 }            // the first call fails, the next ones run
 * @example { tool: 'search', error: new TimeoutError(), after: 2 }    // calls 3, 4, ... fail
 */
export interface ToolFault {
  /** The tool's name, as `traceTool(name, fn)` was given it. */
  tool: string
  /** What the call fails with: a message (thrown as a `ToolFaultError`) or an Error of your own, thrown as it is. */
  error: string | Error
  /** How many calls fail, from the first one that does. Default: every call after `after`. */
  times?: number
  /** How many calls of the tool run normally before the first one fails. Default: 0. */
  after?: number
}

/** How an injected model fault fails a call: the provider's HTTP status, or a timeout. */
export type ModelFaultStatus = 429 | 500 | 503 | 529 | 'timeout'

/** The statuses a model fault takes, in the order messages list them. */
export const MODEL_FAULT_STATUSES: readonly ModelFaultStatus[] = [429, 500, 503, 529, 'timeout']

/**
 * Model calls that fail the way the provider fails them, so the SDK's own
 * retries and error handling run: a 429 or 5xx error response (with the
 * provider's error body, and a retry delay of a millisecond), or a timeout.
 * Each attempt the SDK makes is a call: `times: 1` fails the first attempt
 * and lets the SDK's retry through.
 *
 * @example { llm: true, status: 429, times: 1 }                 // rate-limited once: the SDK retries
 * @example { llm: true, status: 500 }                           // an outage: every attempt fails
 * @example { llm: true, status: 'timeout', model: 'gpt-4o' }     // calls of gpt-4o time out, others run
 */
export interface ModelFault {
  llm: true
  /** 429 (rate limited), 500, 503 (server errors), 529 (overloaded), or `'timeout'` (the SDK's own timeout error, at once). */
  status: ModelFaultStatus
  /** How many calls (attempts) fail, from the first one that does. Default: every call after `after`. */
  times?: number
  /** How many calls (attempts) go through before the first one fails. Default: 0. */
  after?: number
  /** Only calls of this model fail (and count), as the request names it. Default: every model. */
  model?: string
}

/** One injected fault: a tool's, or the model's. */
export type Fault = ToolFault | ModelFault

/** True for a fault of the model's calls. */
export function isModelFault(fault: Fault): fault is ModelFault {
  return 'llm' in fault
}

const TOOL_FORM = '{ tool, error, times?, after? }'
const MODEL_FORM = '{ llm: true, status, times?, after?, model? }'
const TOOL_EXAMPLE = "{ tool: 'charge_card', error: 'card declined', times: 1 }"
const MODEL_EXAMPLE = '{ llm: true, status: 429, times: 1 }'
const EITHER = `${TOOL_FORM} (a tool fails) or ${MODEL_FORM} (model calls fail), e.g. ${TOOL_EXAMPLE} or ${MODEL_EXAMPLE}`
const TOOL_KEYS: ReadonlySet<string> = new Set(['tool', 'error', 'times', 'after'])
const MODEL_KEYS: ReadonlySet<string> = new Set(['llm', 'status', 'times', 'after', 'model'])
const STATUS_LIST = MODEL_FAULT_STATUSES.map((status) => (typeof status === 'string' ? `'${status}'` : String(status)))
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1')

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`
  if (typeof value === 'number') return `the number ${String(value)}`
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).join(', ') || '(none)'}`
  return typeof value
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Error)
}

/** A whole number of at least `min`, else the error naming `option` and what it counts. */
function checkCount(value: unknown, option: string, min: number, counts: string): void {
  if (value === undefined) return
  if (typeof value !== 'number' || Number.isNaN(value))
    throw new TypeError(`session() option "${option}" must be a whole number (${counts}), got ${describe(value)}.`)
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`session() option "${option}" must be a whole number of at least ${min} (${counts}), got ${String(value)}.`)
  }
}

function checkUnknownKeys(value: Record<string, unknown>, option: string, keys: ReadonlySet<string>, form: string): void {
  for (const key of Object.keys(value)) {
    if (!keys.has(key)) throw new TypeError(`session() option "${option}" has an unknown key "${key}". ${form}.`)
  }
}

function checkToolFault(value: Record<string, unknown>, option: string): ToolFault {
  // A key of the model's form without `llm: true` is a model fault missing its switch, not a tool fault with typos.
  const modelKey = value['tool'] === undefined ? ['status', 'model'].find((key) => key in value) : undefined
  if (modelKey !== undefined)
    throw new TypeError(`session() option "${option}" has "${modelKey}" but not llm: true. A model fault is ${MODEL_FORM}, e.g. ${MODEL_EXAMPLE}.`)
  checkUnknownKeys(value, option, TOOL_KEYS, `A tool fault is ${TOOL_FORM}, e.g. ${TOOL_EXAMPLE}`)
  const { tool, error, times, after } = value
  if (typeof tool !== 'string' || tool === '')
    throw new TypeError(`session() option "${option}.tool" must be the name of the tool to fail (a non-empty string), got ${describe(tool)}.`)
  const isMessage = typeof error === 'string' && error !== ''
  if (!isMessage && !(error instanceof Error)) {
    throw new TypeError(
      `session() option "${option}.error" must be what the tool fails with: a message (a non-empty string) or an Error, got ${describe(error)}.`,
    )
  }
  checkCount(times, `${option}.times`, 1, 'how many calls fail')
  checkCount(after, `${option}.after`, 0, 'how many calls run before the first failure')
  return value as unknown as ToolFault
}

function checkModelFault(value: Record<string, unknown>, option: string): ModelFault {
  checkUnknownKeys(value, option, MODEL_KEYS, `A model fault is ${MODEL_FORM}, e.g. ${MODEL_EXAMPLE}`)
  const { llm, status, times, after, model } = value
  if (llm !== true) throw new TypeError(`session() option "${option}.llm" must be true (the fault fails model calls), got ${describe(llm)}.`)
  if (!(MODEL_FAULT_STATUSES as readonly unknown[]).includes(status)) {
    const ErrorClass = typeof status === 'number' ? RangeError : TypeError
    throw new ErrorClass(
      `session() option "${option}.status" must be how the model calls fail: ${STATUS_LIST}; got ${typeof status === 'number' ? String(status) : describe(status)}.`,
    )
  }
  checkCount(times, `${option}.times`, 1, 'how many calls fail')
  checkCount(after, `${option}.after`, 0, 'how many calls go through before the first failure')
  if (model !== undefined && (typeof model !== 'string' || model === '')) {
    throw new TypeError(
      `session() option "${option}.model" must be the model whose calls fail (a non-empty string, as the request names it), got ${describe(model)}.`,
    )
  }
  return value as unknown as ModelFault
}

function checkFault(value: unknown, at: number): Fault {
  const option = `faults[${at}]`
  if (!isPlainObject(value)) throw new TypeError(`session() option "${option}" must be a fault, ${EITHER}; got ${describe(value)}.`)
  return 'llm' in value ? checkModelFault(value, option) : checkToolFault(value, option)
}

/** Checks the `faults` option: a TypeError or RangeError naming the fault and the key at fault. */
export function checkFaultsOption(value: unknown): readonly Fault[] {
  if (!Array.isArray(value)) throw new TypeError(`session() option "faults" must be an array of faults, each ${EITHER}; got ${describe(value)}.`)
  return value.map((fault, at) => checkFault(fault, at))
}
