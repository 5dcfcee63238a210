/**
 * A model call while it is made, as the injected faults see it
 * (faulted-send.ts, fault-response.ts). `ModelCall` is the one kind; this
 * interface, in a file of its own, lets them name it without importing
 * model-call.ts, which imports them.
 */
import type { ModelFault } from '../faults/faults-option.js'
import type { Session } from '../session/session.js'

export interface CallInFlight {
  readonly session: Session
  /** Who the request is for: the model it asks for and its provider (null when it names none). */
  readonly asked: { model: string | null; provider: string | null }
  /** True once the call is in the trace: anything later is ignored. */
  readonly isRecorded: boolean
  /** Runs `fn` (the SDK's method, or a step of the stream it returned) as this call: an instrumented client's `fetch` finds it. */
  run<T>(fn: () => T): T
  /**
   * An attempt of the call begins: asks the run's faults whether it fails;
   * when it does, returns the fault and `errorOf(fault)`, the error the SDK
   * raises from it.
   */
  injectFault<E>(errorOf: (fault: ModelFault) => E): { fault: ModelFault; error: E } | undefined
}
