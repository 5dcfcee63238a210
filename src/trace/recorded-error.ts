/** How errors are written into a trace: on a failed run, a failed LLM call, a tool result. */
import type { RecordedError } from './types.js'

/**
 * The error's name, or its class's when the name is the generic "Error": SDK
 * errors (`BadRequestError`, `APIConnectionError`) and many of the user's own
 * classes never set `name`, and the class says what happened.
 */
function nameOf(error: Error): string {
  if (error.name !== 'Error') return error.name
  const className: unknown = (error.constructor as { name?: unknown } | undefined)?.name
  return typeof className === 'string' && className !== '' && error.constructor !== Error ? className : error.name
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${nameOf(error)}: ${error.message}`
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}

export function recordError(error: unknown): RecordedError {
  if (error instanceof Error) return { name: nameOf(error), message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
  return { name: 'Error', message: describeError(error) }
}
