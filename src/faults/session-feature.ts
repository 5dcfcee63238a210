/**
 * Faults as a feature of the session: its fault plan (its own `faults`, or
 * the one of the session it was opened inside, shared so a sub-agent's calls
 * count toward the same faults) fails the `traceTool` calls it names, and
 * the model-call lifecycle (adapter-support's ModelCall) finds its model
 * faults through `modelFaultsOf(session)`.
 */
import { FeatureKey, internals } from '../session/internals.js'
import type { SessionOptions } from '../session/options.js'
import type { Session, SessionFeature } from '../session/session.js'
import { FaultPlan } from './fault-plan.js'

const FAULTS = new FeatureKey<FaultPlan>('faults')

export const faultsFeature: SessionFeature = {
  attach(session: Session, options: SessionOptions, parent: Session | undefined): void {
    const inner = session[internals]
    const plan = options.faults !== undefined ? new FaultPlan(options.faults) : parent?.[internals].get(FAULTS)
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
