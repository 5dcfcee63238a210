/**
 * A session an adapter opens for an agent its SDK started inside another
 * one's run (an Agents SDK handoff, an agent called as a tool): a child of
 * `parent`, written next to it, whose life the SDK's events decide rather
 * than a function the user wrote. It is a plain `session()` whose function
 * waits for `close`, so it is recorded, finalised and written as every other
 * session is; the parent closes it, if the SDK never did, before it closes
 * itself (a run that broke off must not leave a session open forever).
 */
import { session, type Session } from '../run/session.js'
import type { JsonObject } from '../trace/types.js'
import { internals } from '../session/internals.js'
import { HELPER_RUN } from '../session/options.js'

export interface ChildSession {
  readonly session: Session
  /** Ends the child: completed, or failed with `error`. Resolves once its trace is written. Only the first call counts. */
  close(error?: unknown): Promise<void>
}

export interface ChildSessionOptions {
  /** What the parent handed over; null when nothing was. */
  handoffContext: JsonObject | null
  metadata?: JsonObject
  /**
   * How the parent closes the child when it closes first: `'failed'` (the
   * default: an agent the SDK started and never finished), or `'completed'`
   * (a helper that lives as long as its parent: the simulated tools' model).
   */
  whenParentCloses?: 'failed' | 'completed'
  /** A helper run (session/helper-runs.ts): it takes the parent's replay options, not its limits or faults. */
  helper?: boolean
}

/**
 * Opens a child session `name` of `parent` (same trace directory and
 * redaction). Undefined when `name` cannot name a session (nothing usable in
 * a file name): the caller then records into the parent.
 */
export function openChildSession(parent: Session, name: string, options: ChildSessionOptions): ChildSession | undefined {
  let finish: (error?: unknown) => void = () => undefined
  const ended = new Promise<void>((resolve, reject) => {
    finish = (error) => (error === undefined ? resolve() : reject(error))
  })
  let child: Session | undefined
  // session() builds the Session and calls this function before its first await: `child` is set on return.
  const written = session(
    name,
    {
      traceDir: parent.traceDir,
      ...(parent.redact === undefined ? {} : { redact: parent.redact }),
      parentTraceId: parent.traceId,
      handoffContext: options.handoffContext,
      ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
      ...(options.helper === true ? { [HELPER_RUN]: true } : {}),
    },
    (s) => {
      child = s
      return ended
    },
  ).then(
    () => undefined,
    // A failed child is in its trace (status "failed"); the error is not the parent's to throw.
    () => undefined,
  )
  if (child === undefined) return undefined
  let isOpen = true
  const close = (error?: unknown): Promise<void> => {
    if (isOpen) {
      isOpen = false
      finish(error)
    }
    return written
  }
  const failsWithParent = options.whenParentCloses !== 'completed'
  parent[internals].beforeClose(() =>
    close(isOpen && failsWithParent ? new Error(`the session "${parent.name}" closed before the agent "${name}" it started had finished`) : undefined),
  )
  return { session: child, close }
}
