/**
 * Checks of assertion arguments. A bad argument is a bug in the test, not a
 * failed expectation about the agent, so it is a TypeError or RangeError
 * naming the function and the argument, never an AgentAssertionError.
 */
import { isAmount } from '../trace/cost.js'
import type { Trace } from '../trace/types.js'
import { describeReceived, receivedHint } from './received.js'
import { render } from './render.js'

/** A trace, or anything holding one (a Session, `assertOn(trace)`). */
export type TraceSource = Trace | { readonly trace: Trace }

function describe(value: unknown): string {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
  return `${render(value)} (${type})`
}

function isTrace(value: unknown): value is Trace {
  return value !== null && typeof value === 'object' && Array.isArray((value as Trace).turns)
}

/** The trace of `source` (a Trace, or a Session, chain node or anything holding one as `trace`); else a one-line TypeError. */
export function toTrace(fn: string, source: unknown, argument = 'the first argument'): Trace {
  const holdsTrace = source !== null && typeof source === 'object' && 'trace' in source
  const candidate = holdsTrace ? (source as { trace: unknown }).trace : source
  if (isTrace(candidate)) return candidate
  const got = holdsTrace ? `an object whose "trace" is ${describeReceived(candidate)}, not a Trace` : describeReceived(source)
  throw new TypeError(
    `${fn}(): ${argument} must be a Session, a Trace (as loadTrace() returns) or a chain node (loadChain()), got ${got}.${holdsTrace ? '' : receivedHint(source)}`,
  )
}

export function requireToolName(fn: string, argument: string, value: unknown): string {
  if (typeof value === 'string' && value !== '') return value
  throw new TypeError(`${fn}(): ${argument} must be a tool name (a non-empty string), got ${describe(value)}.`)
}

export function requireCount(fn: string, argument: string, value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value
  throw new RangeError(`${fn}(): ${argument} must be a whole number >= 0, got ${describe(value)}.`)
}

/** The error for `argument` that is not a finite number >= 0. */
export function notALimit(fn: string, argument: string, value: unknown): RangeError {
  return new RangeError(`${fn}(): ${argument} must be a finite number >= 0, got ${describe(value)}.`)
}

/** The error for `argument` that is not an object. */
export function notAnObject(fn: string, argument: string, value: unknown): TypeError {
  return new TypeError(`${fn}(): ${argument} must be an object, got ${describe(value)}.`)
}

export function requireLimit(fn: string, argument: string, value: unknown): number {
  if (isAmount(value)) return value
  throw notALimit(fn, argument, value)
}

export function requireObject(fn: string, argument: string, value: unknown): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  throw notAnObject(fn, argument, value)
}

export function requireNames(fn: string, argument: string, value: unknown): string[] {
  if (!Array.isArray(value)) throw new TypeError(`${fn}(): ${argument} must be an array of strings, got ${describe(value)}.`)
  value.forEach((item, i) => {
    if (typeof item !== 'string') throw new TypeError(`${fn}(): ${argument}[${i}] must be a string, got ${describe(item)}.`)
  })
  return value as string[]
}

/** Options must be an object whose keys are all known: a typo such as `{ mn: 2 }` must not silently check nothing. */
export function requireOptions(fn: string, value: unknown, known: readonly string[]): Record<string, unknown> {
  const options = requireObject(fn, 'options', value)
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new TypeError(`${fn}(): unknown option "${key}". Valid options: ${known.join(', ')}.`)
  }
  return options
}
