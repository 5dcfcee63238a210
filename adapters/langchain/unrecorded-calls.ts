/**
 * A LangChain chat model called inside a session without the reagent-flow
 * handler seeing its run records nothing, and the session would look like an
 * agent that never called its model. The model hook sees every call (it
 * patches the chat model class, not a run's callbacks), so it counts the
 * calls it saw inside each session and the ones no handler started a run
 * for; the session warns when it closes if any was not recorded. A session
 * that never called a LangChain chat model is never counted, so never warned.
 */
import { internals, warn, type Session } from '../../src/adapter-support/index.js'

interface Seen {
  /** The chat model calls made inside the session, each by its run id (or its messages, when it ran with no callbacks). */
  readonly calls: Set<unknown>
  /** Those no handler recorded. */
  readonly unrecorded: Set<unknown>
  /** The chat model classes of the unrecorded ones, for the warning. */
  readonly models: Set<string>
}

const seenIn = new WeakMap<Session, Seen>()

function seenOf(session: Session): Seen {
  let seen = seenIn.get(session)
  if (seen === undefined) {
    seen = { calls: new Set(), unrecorded: new Set(), models: new Set() }
    seenIn.set(session, seen)
    session[internals].beforeClose(() => warnIfUnrecorded(session, seen!))
  }
  return seen
}

/** A chat model call (`call`: its run id, or its messages) of `model` was made inside `session`; `recorded` when a handler started its run. */
export function noteModelCall(session: Session, call: unknown, model: string, recorded: boolean): void {
  const seen = seenOf(session)
  seen.calls.add(call)
  if (recorded) return
  seen.unrecorded.add(call)
  seen.models.add(model)
}

function warnIfUnrecorded(session: Session, seen: Seen): void {
  const missed = seen.unrecorded.size
  if (missed === 0) return
  const made = seen.calls.size
  const calls = made === 1 ? 'a LangChain chat model' : `LangChain chat models ${made} times`
  const recorded = made === missed ? (made === 1 ? 'did not record the call' : 'recorded none of those calls') : `did not record ${missed} of them`
  warn(
    'REAGENT_ADAPTER',
    `session "${session.name}" called ${calls} (${[...seen.models].join(', ')}) and ${recorded}: ` +
      'LangChain ran them without the reagent-flow handler. Call instrumentLangChain() from reagent-flow/langchain before the agent runs ' +
      "(at the top of the test file or in a vitest setup file), or pass a ReagentCallbackHandler in the run's callbacks.",
  )
}
