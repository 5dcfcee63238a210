/**
 * Limits as a feature of the session: the run's guard (its own `limits`, or
 * the one of the session it was opened inside, shared so a sub-agent counts
 * toward them) refuses model and tool calls past a limit, and a run a limit
 * stopped is closed as cancelled with the limit as its reason.
 */
import { FeatureKey, internals } from '../session/internals.js'
import { HELPER_RUN, isHelperRun, type RecordingOptions } from '../session/options.js'
import type { Session, SessionFeature } from '../session/session.js'
import { budgetStopOf } from './budget-stop.js'
import type { Limits } from './limits-option.js'
import { RunGuard } from './run-guard.js'

export interface LimitsOptions {
  /**
   * A runaway guard: once the run has gone past one of these, its next model
   * or tool call throws `BudgetExceededError`, and the run is recorded as
   * `cancelled` with the limit as its reason. Sessions opened inside this
   * one count toward its limits. Default: none. (README, "Faults and limits".)
   * @example { limits: { turns: 10, tokens: 20_000, usd: 0.5, seconds: 60 } }
   */
  limits?: Limits
}

/** The guard of a session with limits, its own or its parent's. */
const GUARD = new FeatureKey<RunGuard>('limits')

export const limitsFeature: SessionFeature = {
  attach(session: Session, options: RecordingOptions & LimitsOptions & { [HELPER_RUN]?: boolean }, parent: Session | undefined): void {
    const inner = session[internals]
    // A helper run (a simulated user, a judge) spends outside the agent's budget.
    const guard = options.limits !== undefined ? new RunGuard(options.limits) : isHelperRun(options) ? undefined : parent?.[internals].get(GUARD)
    // Also without limits of its own: a sub-agent's stop that came up as the function's error stops this run too.
    inner.lifecycle.on('ended', (end, thrown) => {
      // Whether the agent rethrew the stop or caught it.
      const stop = budgetStopOf(guard, thrown)
      if (stop === undefined) return
      end.status = 'cancelled'
      end.reason = stop.reason
    })
    if (guard === undefined) return
    inner.set(GUARD, guard)
    inner.addGate({
      beforeModelCall: (name) => guard.stopBeforeModelCall(name),
      afterModelCall: (call, isAdmitted, name) => {
        // A call the agent logged itself has happened: it is kept and counted, and past a limit the run stops here.
        const stop = isAdmitted ? undefined : guard.stopAfterLoggedModelCall(name)
        guard.count(call, name)
        return stop
      },
      beforeToolCall: (tool, name) => {
        const stop = guard.stopBeforeToolCall(name, tool)
        return stop === undefined ? undefined : { error: stop, injected: false }
      },
    })
  },
}
