/**
 * What a session announces as it lives, and the small emitter it announces
 * it through (as msw's `handleRequest` announces `request:start`,
 * `request:match`, `request:end`). The features (run files and journal,
 * replay steps, limits, faults, the ledger reporter, goldens) subscribe to
 * it; the session imports none of them. They subscribe in the order
 * src/run/features.ts lists them, and each event reaches its listeners in
 * that order.
 *
 * Emitting to no listener is one Map lookup: a session with no feature on
 * pays nothing else (docs/decisions/054-session-lifecycle.md has the figures).
 */
import type { ToolDefinition, ToolResult, Trace, TraceStatus } from '../trace/types.js'

/** How a session's run ended; the `ended` listeners may still change it (a limit makes it `cancelled`, with the limit as reason). */
export interface SessionEnd {
  status: Exclude<TraceStatus, 'active'>
  /** What the function threw, recorded as the trace's `error`; absent when it returned or the session was closed from outside. */
  error?: unknown
  reason?: string
}

/** Each event with the arguments its listeners get. */
export interface SessionEvents {
  /** Every feature has attached: files may be opened now (a feature that refuses its options has thrown before any was). */
  opened: []
  /** A set of tools offered was stored on the trace's `tool_sets`, by the first call that offered it (announced before that call's turn). */
  'tool-set': [id: string, tools: ToolDefinition[]]
  /** Turn `index` was recorded: a model call answered (or failed), logged by the agent or an adapter. */
  turn: [index: number, durationMs: number]
  /**
   * A tool result was recorded on turn `index` (`name`: it matched no call and
   * is kept there as unmatched); `injected`: a fault the `faults` option injected.
   */
  'tool-result': [index: number, result: ToolResult, durationMs: number, name: string | undefined, injected: boolean]
  /** Turn `index` was changed after it was recorded, other than by a tool result (a note an adapter added to it). */
  'turn-changed': [index: number]
  /** A result logged before any model call, kept under `orphan_results`. */
  'orphan-result': [orphan: ToolResult & { name: string; injected?: boolean }]
  /** The session's function settled (not when closed from outside): `end` may still be changed. */
  ended: [end: SessionEnd, thrown: unknown]
  /** The trace is final in memory (`status`, ended_at, error) and nothing is written yet. */
  closing: [trace: Trace, status: SessionEnd['status']]
  /** The trace is final; its file is written by the first listener (run files), the others see it written. */
  closed: [trace: Trace, status: SessionEnd['status']]
  /** A field was set on a closed trace (`golden: true`, when a matcher compared the run with its golden): its file is written again. */
  amended: [trace: Trace]
}

type Listener<K extends keyof SessionEvents> = (...args: SessionEvents[K]) => void
/** A listener as the emitter calls it: with as many arguments as the longest event has. */
type AnyListener = (a: unknown, b: unknown, c: unknown, d: unknown, e: unknown) => void

export class Lifecycle {
  readonly #listeners = new Map<keyof SessionEvents, AnyListener[]>()

  /** Calls `listener` on each `event`, after the listeners subscribed before it. */
  on<K extends keyof SessionEvents>(event: K, listener: Listener<K>): void {
    const list = this.#listeners.get(event)
    if (list === undefined) this.#listeners.set(event, [listener as AnyListener])
    else list.push(listener as AnyListener)
  }

  /** Tells the listeners of `event`, in the order they subscribed. A listener that throws stops the announcement: the caller sees the error. */
  emit<K extends keyof SessionEvents>(event: K, ...args: SessionEvents[K]): void
  // Named parameters, as many as the longest event has, rather than a rest array: the recorder emits twice a
  // turn, and collecting and spreading the arguments cost a session with no listener 6 to 9% of its recording time.
  emit(event: keyof SessionEvents, a?: unknown, b?: unknown, c?: unknown, d?: unknown, e?: unknown): void {
    const list = this.#listeners.get(event)
    if (list === undefined) return
    for (const listener of list) listener(a, b, c, d, e)
  }
}
