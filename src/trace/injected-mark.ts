/**
 * The mark of a tool result an injected fault produced (the `faults`
 * option): on its turn, never on the result, which reagent-flow 0.5 builds
 * from exactly its four keys. The recorder marks a turn as it records and
 * the journal reader marks it again from the journal's result records.
 */
import type { Turn } from './types.js'

/** Marks `turn` as holding the injected result of call `callId`. */
export function markInjected(turn: Turn, callId: string): void {
  turn.injected = true
  const marked = turn.injected_results
  if (Array.isArray(marked)) marked.push(callId)
  else turn.injected_results = [callId]
}
