/**
 * Strict mode: turns are aligned (see align.ts), and every difference inside
 * two aligned turns counts: calls added or removed, arguments, results,
 * errors, results without a call, response text. A turn on one side only is
 * one added or removed turn.
 */
import { align, type Level, type Pair } from './align.js'
import type { ChangeLog } from './changes.js'
import { sameArgs } from './compare-values.js'
import type { ResolvedDiffOptions } from './options.js'
import type { CallView, TurnView } from './view.js'

/** Alignment levels for calls: same tool with the same arguments, then same tool. */
function callLevels(options: ResolvedDiffOptions): Level<CallView>[] {
  return [(e, a) => e.name === a.name && sameArgs(options.argsRule(e.name), e.args, a.args), (e, a) => e.name === a.name]
}

/**
 * Alignment levels for turns: the same calls (tool names and arguments), then
 * the same tool names, then at least one tool in common (a turn that gained
 * or lost a parallel call still lines up with its counterpart).
 */
export function turnLevels(options: ResolvedDiffOptions): Level<TurnView>[] {
  const [sameCall, sameTool] = callLevels(options) as [Level<CallView>, Level<CallView>]
  const sameCalls =
    (same: Level<CallView>) =>
    (e: TurnView, a: TurnView): boolean => {
      if (e.calls.length !== a.calls.length) return false
      for (let i = 0; i < e.calls.length; i++) if (!same(e.calls[i]!, a.calls[i]!)) return false
      return true
    }
  const toolInCommon = (e: TurnView, a: TurnView): boolean => e.calls.some((call) => a.calls.some((other) => other.name === call.name))
  return [sameCalls(sameCall), sameCalls(sameTool), toolInCommon]
}

function compareTurns(expected: TurnView, actual: TurnView, identicalCalls: boolean, options: ResolvedDiffOptions, log: ChangeLog): void {
  const turn = { expected: expected.index, actual: actual.index }
  if (identicalCalls) {
    for (let i = 0; i < expected.calls.length; i++) {
      log.compareCalls(expected.calls[i]!, actual.calls[i]!, turn, options.argsRule(actual.calls[i]!.name), true)
    }
  } else {
    for (const pair of align(expected.calls, actual.calls, callLevels(options))) {
      const e = pair.expected === null ? undefined : expected.calls[pair.expected]
      const a = pair.actual === null ? undefined : actual.calls[pair.actual]
      if (e !== undefined && a !== undefined && e.name === a.name) {
        log.compareCalls(e, a, turn, options.argsRule(a.name), pair.level === 0)
      } else {
        if (e !== undefined) log.call('removed', e, turn)
        if (a !== undefined) log.call('added', a, turn)
      }
    }
  }
  log.compareStrays(expected.strays, actual.strays, turn)
  log.responseText(expected, actual, turn)
}

export function compareStrict(
  expected: readonly TurnView[],
  actual: readonly TurnView[],
  pairs: readonly Pair[],
  options: ResolvedDiffOptions,
  log: ChangeLog,
): void {
  for (const pair of pairs) {
    const e = pair.expected === null ? undefined : expected[pair.expected]
    const a = pair.actual === null ? undefined : actual[pair.actual]
    if (e !== undefined && a !== undefined) compareTurns(e, a, pair.level === 0, options, log)
    else if (e !== undefined) log.turn('removed', e, { expected: e.index, actual: null })
    else if (a !== undefined) log.turn('added', a, { expected: null, actual: a.index })
  }
}
