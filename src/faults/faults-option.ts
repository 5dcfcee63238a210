/**
 * The `faults` session option: what it accepts, and its check. A fault names
 * the tool it breaks and what the tool fails with; `after` and `times` say
 * which of its calls fail, so a transient failure (the first call) or an
 * outage (every call) is one line each.
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

/** One injected fault. Tool faults are the one kind so far. */
export type Fault = ToolFault

const FORM = '{ tool, error, times?, after? }'
const EXAMPLE = "[{ tool: 'charge_card', error: 'card declined', times: 1 }]"
const KEYS: ReadonlySet<string> = new Set(['tool', 'error', 'times', 'after'])

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`
  if (typeof value === 'number') return `the number ${String(value)}`
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).join(', ') || '(none)'}`
  return typeof value
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Error)
}

/** A whole number of at least `min`, else the error naming `option` and what it counts. */
function checkCount(value: unknown, option: string, min: number, counts: string): void {
  if (value === undefined) return
  if (typeof value !== 'number' || Number.isNaN(value)) throw new TypeError(`session() option "${option}" must be a whole number (${counts}), got ${describe(value)}.`)
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`session() option "${option}" must be a whole number of at least ${min} (${counts}), got ${String(value)}.`)
  }
}

function checkFault(value: unknown, at: number): Fault {
  const option = `faults[${at}]`
  if (!isPlainObject(value)) throw new TypeError(`session() option "${option}" must be a fault ${FORM}, e.g. ${EXAMPLE.slice(1, -1)}; got ${describe(value)}.`)
  for (const key of Object.keys(value)) {
    if (!KEYS.has(key)) throw new TypeError(`session() option "${option}" has an unknown key "${key}". A fault is ${FORM}, e.g. ${EXAMPLE.slice(1, -1)}.`)
  }
  const { tool, error, times, after } = value
  if (typeof tool !== 'string' || tool === '') throw new TypeError(`session() option "${option}.tool" must be the name of the tool to fail (a non-empty string), got ${describe(tool)}.`)
  const isMessage = typeof error === 'string' && error !== ''
  if (!isMessage && !(error instanceof Error)) {
    throw new TypeError(`session() option "${option}.error" must be what the tool fails with: a message (a non-empty string) or an Error, got ${describe(error)}.`)
  }
  checkCount(times, `${option}.times`, 1, 'how many calls fail')
  checkCount(after, `${option}.after`, 0, 'how many calls run before the first failure')
  return value as unknown as Fault
}

/** Checks the `faults` option: a TypeError or RangeError naming the fault and the key at fault. */
export function checkFaultsOption(value: unknown): readonly Fault[] {
  if (!Array.isArray(value)) throw new TypeError(`session() option "faults" must be an array of faults ${FORM}, e.g. ${EXAMPLE}; got ${describe(value)}.`)
  return value.map((fault, at) => checkFault(fault, at))
}
