/**
 * The faults of one run, as it goes: each fault counts the calls of its
 * tool, and says, when a call starts, whether that call is one it breaks.
 * Every fault counts every call of its tool, so two faults of one tool
 * (`times: 1`, and `after: 3`) each break the calls they name.
 */
import { ToolFaultError } from '../errors.js'
import type { Fault } from './faults-option.js'

interface FaultState {
  readonly fault: Fault
  /** Calls of the tool seen so far. */
  seen: number
}

export class FaultPlan {
  readonly #byTool = new Map<string, FaultState[]>()

  constructor(faults: readonly Fault[]) {
    for (const fault of faults) {
      const states = this.#byTool.get(fault.tool)
      if (states === undefined) this.#byTool.set(fault.tool, [{ fault, seen: 0 }])
      else states.push({ fault, seen: 0 })
    }
  }

  /**
   * A call of `tool` starts: the error it fails with instead of running,
   * or undefined when it runs. Counts the call either way.
   */
  toolCall(tool: string): { error: unknown } | undefined {
    const states = this.#byTool.get(tool)
    if (states === undefined) return undefined
    let breaking: Fault | undefined
    for (const state of states) {
      const call = state.seen++
      const after = state.fault.after ?? 0
      const times = state.fault.times ?? Number.POSITIVE_INFINITY
      if (breaking === undefined && call >= after && call < after + times) breaking = state.fault
    }
    if (breaking === undefined) return undefined
    return { error: typeof breaking.error === 'string' ? new ToolFaultError(tool, breaking.error) : breaking.error }
  }
}
