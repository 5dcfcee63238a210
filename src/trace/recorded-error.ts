/**
 * How errors are written into a trace: on a failed run, a failed LLM call, a
 * tool result. Whatever was thrown (a null-prototype circular object, an
 * Error whose `message` getter throws, a revoked Proxy), this never throws:
 * the agent's error must always win over ours.
 */
import { toJsonValue } from './serialize.js'
import type { RecordedError } from './types.js'

/** `read()`, or `fallback` when reading throws. */
function safely<T>(read: () => T, fallback: T): T {
  try {
    return read()
  } catch {
    return fallback
  }
}

function isError(value: unknown): value is Error {
  // instanceof reads the prototype, which a revoked Proxy refuses.
  return safely(() => value instanceof Error, false)
}

/** Any value as text: a string as it is, anything else as its JSON (with stand-ins), never throwing. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  const json = toJsonValue(value)
  if (typeof json === 'string') return json
  return safely(() => JSON.stringify(json), '[unprintable value]')
}

/**
 * The error's name, or its class's when the name is the generic "Error": SDK
 * errors (`BadRequestError`, `APIConnectionError`) and many of the user's own
 * classes never set `name`, and the class says what happened.
 */
function nameOf(error: Error): string {
  const name = safely(() => error.name, 'Error')
  if (typeof name === 'string' && name !== 'Error' && name !== '') return name
  const maker = safely(() => error.constructor as { name?: unknown } | undefined, undefined)
  const className = safely(() => maker?.name, undefined)
  return typeof className === 'string' && className !== '' && maker !== Error ? className : 'Error'
}

function messageOf(error: Error): string {
  const message = safely<unknown>(() => error.message, '[the message could not be read]')
  return textOf(message)
}

export function describeError(error: unknown): string {
  if (isError(error)) return `${nameOf(error)}: ${messageOf(error)}`
  return textOf(error)
}

export function recordError(error: unknown): RecordedError {
  if (!isError(error)) return { name: 'Error', message: describeError(error) }
  const stack = safely<unknown>(() => error.stack, undefined)
  return { name: nameOf(error), message: messageOf(error), ...(typeof stack === 'string' && stack !== '' ? { stack } : {}) }
}
