/**
 * Faults as a feature of the session: its fault plan (its own `faults`, or
 * the one of the session it was opened inside, shared so a sub-agent's calls
 * count toward the same faults) fails the `traceTool` calls it names, and
 * the model-call lifecycle (adapter-support's ModelCall) finds its model
 * faults through `modelFaultsOf(session)`.
 */
import { FeatureKey, internals } from '../session/internals.js'
import { HELPER_RUN, isHelperRun, type RecordingOptions } from '../session/options.js'
import type { Session, SessionFeature } from '../session/session.js'
import { FaultPlan } from './fault-plan.js'
import type { Fault } from './faults-option.js'

export interface FaultsOptions {
  /**
   * Failures to test how the agent copes. A tool fault: a call of a
   * `traceTool` tool named by it throws its error, and its turn is marked
   * `injected: true`. A model fault (`llm: true`): the model's calls fail
   * the way the provider fails them (a 429, a 5xx, a timeout), so the SDK's
   * own retries and error classes run; each failed attempt is a turn whose
   * LLM call says `injected: true`. Sessions opened inside this one share
   * its faults. Default: none. (README, "Faults and limits".)
   * @example { faults: [{ tool: 'charge_card', error: 'card declined', times: 1 }] }
   * @example { faults: [{ llm: true, status: 429, times: 1 }] }
   */
  faults?: readonly Fault[]
}

const FAULTS = new FeatureKey<FaultPlan>('faults')

export const faultsFeature: SessionFeature = {
  attach(session: Session, options: RecordingOptions & FaultsOptions & { [HELPER_RUN]?: boolean }, parent: Session | undefined): void {
    const inner = session[internals]
    // A helper run (a simulated user, a judge) is not the agent: the agent's faults are not its.
    const plan = options.faults !== undefined ? new FaultPlan(options.faults) : isHelperRun(options) ? undefined : parent?.[internals].get(FAULTS)
    if (plan === undefined) return
    inner.set(FAULTS, plan)
    inner.addGate({
      beforeToolCall: (tool) => {
        const fault = plan.toolCall(tool)
        return fault === undefined ? undefined : { error: fault.error, injected: true }
      },
    })
  },
}

/** The plan of `session` when it holds model faults (`{ llm: true, status }`); undefined otherwise (the common case, checked first on every call). */
export function modelFaultsOf(session: Session): FaultPlan | undefined {
  const plan = session[internals].get(FAULTS)
  return plan?.hasModelFaults === true ? plan : undefined
}
