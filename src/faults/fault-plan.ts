/**
 * The faults of one run, as it goes: each fault counts the calls it is
 * about (of its tool; of the model's, or of its model's), and says, when a
 * call starts, whether that call is one it breaks. Every fault counts every
 * such call, so two faults of one tool (`times: 1`, and `after: 3`) each
 * break the calls they name. A model call is counted per attempt: the SDK's
 * retry of a failed call is a call of its own.
 */
import { ToolFaultError } from '../errors/index.js'
import { isModelFault, type Fault, type ModelFault, type ToolFault } from './faults-option.js'

interface FaultState<F extends Fault> {
  readonly fault: F
  /** Calls seen so far. */
  seen: number
}

/** Counts one call on every state, and returns the first fault whose window holds it. */
function breakingFault<F extends Fault>(states: readonly FaultState<F>[]): F | undefined {
  let breaking: F | undefined
  for (const state of states) {
    const call = state.seen++
    const after = state.fault.after ?? 0
    const times = state.fault.times ?? Number.POSITIVE_INFINITY
    if (breaking === undefined && call >= after && call < after + times) breaking = state.fault
  }
  return breaking
}

export class FaultPlan {
  readonly #byTool = new Map<string, FaultState<ToolFault>[]>()
  readonly #model: FaultState<ModelFault>[] = []

  constructor(faults: readonly Fault[]) {
    for (const fault of faults) {
      if (isModelFault(fault)) {
        this.#model.push({ fault, seen: 0 })
        continue
      }
      const states = this.#byTool.get(fault.tool)
      if (states === undefined) this.#byTool.set(fault.tool, [{ fault, seen: 0 }])
      else states.push({ fault, seen: 0 })
    }
  }

  /** True when some fault is about the model's calls. */
  get hasModelFaults(): boolean {
    return this.#model.length > 0
  }

  /**
   * A call of `tool` starts: the error it fails with instead of running,
   * or undefined when it runs. Counts the call either way.
   */
  toolCall(tool: string): { error: unknown } | undefined {
    const states = this.#byTool.get(tool)
    if (states === undefined) return undefined
    const breaking = breakingFault(states)
    if (breaking === undefined) return undefined
    return { error: typeof breaking.error === 'string' ? new ToolFaultError(tool, breaking.error) : breaking.error }
  }

  /**
   * An attempt of a model call to `model` (null when the request names
   * none) starts: the fault it fails with, or undefined when it goes on.
   * Counted by the faults of every model, and of `model`.
   */
  modelCall(model: string | null): ModelFault | undefined {
    if (this.#model.length === 0) return undefined
    return breakingFault(this.#model.filter((state) => state.fault.model === undefined || state.fault.model === model))
  }
}
