/** How errors are written into a trace: on a failed run, a failed LLM call, a tool result. */
import type { RecordedError } from './types.js'

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}

export function recordError(error: unknown): RecordedError {
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
  return { name: 'Error', message: describeError(error) }
}
