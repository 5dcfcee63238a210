/**
 * The sessions open in this thread, and what becomes of them when the
 * process ends before they close:
 *
 * - SIGINT / SIGTERM (main thread only: worker threads get no signals): each
 *   open session is closed as `cancelled`, the signal as its reason, and
 *   written; then the process does exactly what it would have done without
 *   reagent-flow: when nobody else listens for the signal, it dies by it;
 *   otherwise the user's own handlers decide.
 * - process exit (`process.exit()`, an uncaught exception, an event loop
 *   that ran dry while a session waited on a promise that never settles):
 *   each open session is closed as `interrupted`, "process exited before the
 *   session closed", and written.
 *
 * The listeners exist only while a session is open: none is left behind.
 * A SIGKILL or an out-of-memory crash runs nothing; those runs are
 * recovered from their journals (storage/recovery.ts).
 */
import { currentThread } from '../base/node-builtins.js'

/** What a session must offer to be closed from outside, at once and synchronously (its internals, internals.ts, do). */
export interface ClosableSession {
  closeNow(status: 'cancelled' | 'interrupted', reason: string): void
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const
type Signal = (typeof SIGNALS)[number]

export const EXIT_REASON = 'process exited before the session closed'

const open = new Set<ClosableSession>()

function closeAll(status: 'cancelled' | 'interrupted', reason: string): void {
  for (const session of [...open]) {
    try {
      session.closeNow(status, reason)
    } catch {
      // One session that cannot be written must not keep the others from it.
    }
  }
}

function onSignal(signal: Signal): void {
  closeAll('cancelled', signal)
  // closeAll removed our listeners with the last session: if no one else listens, do what Node would have done.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}

const listeners = new Map<Signal, () => void>(SIGNALS.map((signal) => [signal, () => onSignal(signal)]))

function onExit(): void {
  closeAll('interrupted', EXIT_REASON)
}

function listen(): void {
  if (currentThread().isMainThread) for (const [signal, listener] of listeners) process.on(signal, listener)
  process.on('exit', onExit)
}

function stopListening(): void {
  if (currentThread().isMainThread) for (const [signal, listener] of listeners) process.off(signal, listener)
  process.off('exit', onExit)
}

export function sessionOpened(session: ClosableSession): void {
  if (open.size === 0) listen()
  open.add(session)
}

export function sessionClosed(session: ClosableSession): void {
  if (!open.delete(session) || open.size > 0) return
  stopListening()
}
