/**
 * Strict mode: turns are aligned (see align.ts), and every difference inside
 * two aligned turns counts: calls added or removed, arguments, results,
 * errors, results without a call, response text, and what the call was given
 * (model, system prompt). A turn on one side only is one added or removed turn.
 */
import { align, type Level, type Pair } from './align.js'
import type { ChangeLog } from './changes.js'
import { sameArgs } from './compare-values.js'
import type { CallView, TurnView } from './view.js'

// The comparators are module-level functions reading everything from the
// views (see align.ts for why).

const sameCall: Level<CallView> = (e, a) => e.name === a.name && sameArgs(e.rule, e.args, a.args)
const sameTool: Level<CallView> = (e, a) => e.name === a.name

function sameCalls(same: Level<CallView>, e: TurnView, a: TurnView): boolean {
  if (e.calls.length !== a.calls.length) return false
  for (let i = 0; i < e.calls.length; i++) if (!same(e.calls[i]!, a.calls[i]!)) return false
  return true
}

/** Alignment levels for calls: same tool with the same arguments, then same tool. */
const CALL_LEVELS: readonly Level<CallView>[] = [sameCall, sameTool]

/**
 * Alignment levels for turns: the same calls (tool names and arguments), then
 * the same tool names, then at least one tool in common (a turn that gained
 * or lost a parallel call still lines up with its counterpart).
 */
export const TURN_LEVELS: readonly Level<TurnView>[] = [
  (e, a) => sameCalls(sameCall, e, a),
  (e, a) => sameCalls(sameTool, e, a),
  (e, a) => e.calls.some((call) => a.calls.some((other) => other.name === call.name)),
]

function compareTurns(expected: TurnView, actual: TurnView, identicalCalls: boolean, log: ChangeLog): void {
  const turn = { expected: expected.index, actual: actual.index }
  log.callInputs(expected, actual, turn)
  if (identicalCalls) {
    for (let i = 0; i < expected.calls.length; i++) {
      log.compareCalls(expected.calls[i]!, actual.calls[i]!, turn, true)
    }
  } else {
    for (const pair of align(expected.calls, actual.calls, CALL_LEVELS)) {
      const e = pair.expected === null ? undefined : expected.calls[pair.expected]
      const a = pair.actual === null ? undefined : actual.calls[pair.actual]
      if (e !== undefined && a !== undefined && e.name === a.name) {
        log.compareCalls(e, a, turn, pair.level === 0)
      } else {
        if (e !== undefined) log.call('removed', e, turn)
        if (a !== undefined) log.call('added', a, turn)
      }
    }
  }
  log.compareStrays(expected.strays, actual.strays, turn)
  log.responseText(expected, actual, turn)
}

export function compareStrict(expected: readonly TurnView[], actual: readonly TurnView[], pairs: readonly Pair[], log: ChangeLog): void {
  for (const pair of pairs) {
    const e = pair.expected === null ? undefined : expected[pair.expected]
    const a = pair.actual === null ? undefined : actual[pair.actual]
    if (e !== undefined && a !== undefined) compareTurns(e, a, pair.level === 0, log)
    else if (e !== undefined) log.turn('removed', e, { expected: e.index, actual: null })
    else if (a !== undefined) log.turn('added', a, { expected: null, actual: a.index })
  }
}
