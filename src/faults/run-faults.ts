/**
 * Which fault plan a session runs with, found by the model-call lifecycle
 * (adapter-support's ModelCall) through `modelFaultsOf(session)`: the plan is
 * the session's own `faults`, or the one of the session it was opened
 * inside (shared, so a sub-agent's calls count toward the same faults). A
 * registry rather than a method on Session, so adapters never see it.
 */
import type { FaultPlan } from './fault-plan.js'

const plans = new WeakMap<object, FaultPlan>()

/** Called by the session as it opens. */
export function attachFaults(session: object, plan: FaultPlan | undefined): void {
  if (plan !== undefined) plans.set(session, plan)
}

/** The plan of `session` when it holds model faults (`{ llm: true, status }`); undefined otherwise (the common case, checked first on every call). */
export function modelFaultsOf(session: object): FaultPlan | undefined {
  const plan = plans.get(session)
  return plan?.hasModelFaults === true ? plan : undefined
}
