/**
 * A recorded `traceTool` execution, played back: the value it returned (a
 * fresh copy each time: the agent may change what it gets), or the error it
 * threw, as a promise when the tool was async.
 */
import type { ToolRecord } from '../storage/index.js'

function errorFrom(recorded: { name: string; message: string }): Error {
  const error = new Error(recorded.message)
  error.name = recorded.name
  return error
}

/** What the tool does when it is replayed instead of run. */
export function replayedTool(step: ToolRecord): () => unknown {
  return () => {
    if (step.error !== undefined) {
      const error = errorFrom(step.error)
      if (step.async) return Promise.reject(error)
      throw error
    }
    const value = step.result === undefined ? undefined : structuredClone(step.result)
    return step.async ? Promise.resolve(value) : value
  }
}
