/**
 * What one simulated tool keeps per session: how many calls it had, the
 * stateful fake's state, and the results a model gave (shown to it on the
 * next call). Fresh in each session; outside a session, one for the process.
 */
import type { Session } from '../../session/session.js'
import type { AnsweredCall } from './model-answer.js'

export interface ToolRun<State> {
  calls: number
  /** The stateful fake's state, made on the session's first call (a box: the state itself may be undefined). */
  state: { value: State } | undefined
  answered: AnsweredCall[]
}

export class ToolRuns<State> {
  readonly #runs = new WeakMap<Session, ToolRun<State>>()
  readonly #outside: ToolRun<State> = { calls: 0, state: undefined, answered: [] }

  of(session: Session | undefined): ToolRun<State> {
    if (session === undefined) return this.#outside
    let run = this.#runs.get(session)
    if (run === undefined) {
      run = { calls: 0, state: undefined, answered: [] }
      this.#runs.set(session, run)
    }
    return run
  }
}
