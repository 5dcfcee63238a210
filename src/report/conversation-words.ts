/**
 * The words for a recorded conversation (`conversation()` of
 * reagent-flow/simulate) that `reagent-flow show` and the viewer's Chat
 * panel both use, so the terminal and the page say the same thing:
 *
 *   ended by the user after 3 exchanges: goal met ("got the refund")
 *   stopped at maxTurns (8)
 *   failed: the user's model answered nothing
 *   turns 2–4
 *
 * Pure (no colour, no Node): the viewer's page bundles it, so it imports
 * nothing of format-value.ts (whose colour types reach Node's process) and
 * writes its two small helpers the same way.
 */
import type { ConversationRecord } from '../trace/types.js'

/** As format-value's oneLineText: newlines and quotes escaped as in JSON, cut to `max` with an ellipsis. */
function oneLineText(text: string, max: number): string {
  const escaped = JSON.stringify(text).slice(1, -1)
  return escaped.length > max ? `${escaped.slice(0, max - 1)}…` : escaped
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`

/** How a conversation ended, for colour: the goal met, stopped short of it, or failed. */
export type ConversationTone = 'met' | 'short' | 'failed' | 'plain'

export interface ConversationEnding {
  /** One line: `ended by the user after 3 exchanges: goal met ("got the refund")`. */
  text: string
  tone: ConversationTone
}

/** `("got the refund")`, the reason quoted on one line and cut to `width`; empty without one. */
function quoted(reason: string | null, width: number): string {
  return reason === null || reason === '' ? '' : ` ("${oneLineText(reason, width)}")`
}

/** How `record` ended, in one line; `width` cuts the quoted reason. */
export function describeEnding(record: ConversationRecord, width = 100): ConversationEnding {
  const after = `after ${plural(record.exchanges, 'exchange')}`
  switch (record.ended_by) {
    case 'user': {
      if (record.goal_met === null) return { text: `ended by the user ${after}${quoted(record.reason, width)}`, tone: 'plain' }
      const verdict = record.goal_met ? 'goal met' : 'goal not met'
      return { text: `ended by the user ${after}: ${verdict}${quoted(record.reason, width)}`, tone: record.goal_met ? 'met' : 'short' }
    }
    case 'max_turns':
      return { text: `stopped at maxTurns (${record.max_turns})`, tone: 'short' }
    case 'stop':
      return { text: `ended by the test's stop function ${after}${quoted(record.reason, width)}`, tone: 'plain' }
    case 'error':
      return { text: record.reason === null ? 'failed' : `failed: ${oneLineText(record.reason, width)}`, tone: 'failed' }
  }
}

/** Sorted, distinct turn indexes as runs: [1, 2, 3, 5] -> [[1, 3], [5, 5]]. */
export function turnRuns(turns: readonly number[]): Array<[number, number]> {
  const sorted = [...new Set(turns)].sort((a, b) => a - b)
  const runs: Array<[number, number]> = []
  for (const index of sorted) {
    const last = runs.at(-1)
    if (last !== undefined && last[1] === index - 1) last[1] = index
    else runs.push([index, index])
  }
  return runs
}

/** `turn 2`, `turns 2–4`, `turns 1, 3–4`, `no turn` (a reply made without a model call). */
export function describeTurns(turns: readonly number[]): string {
  const runs = turnRuns(turns)
  if (runs.length === 0) return 'no turn'
  const single = runs.length === 1 && runs[0]![0] === runs[0]![1]
  return `${single ? 'turn' : 'turns'} ${runs.map(([from, to]) => (from === to ? `${from}` : `${from}–${to}`)).join(', ')}`
}
