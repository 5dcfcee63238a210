/**
 * The order-free modes (unordered, subset, superset), as agentevals defines
 * them: the calls of each trace are taken as a multiset, and each expected
 * call is matched with the first unused actual call of the same tool whose
 * arguments the rule accepts. Then:
 *
 *   unordered  unmatched calls on either side count
 *   subset     unmatched actual calls count (expected ones may be missing)
 *   superset   unmatched expected calls count (extra actual calls are fine)
 *
 * Matched calls must also have equal results. Leftover calls of the same tool
 * on both sides are shown as one call with changed arguments, which reads
 * better than a removal and an addition. The response compared is the final
 * answer (the last response text of each trace), since turns are not aligned.
 */
import { pushTo } from '../base/list-map.js'
import type { Pair } from './align.js'
import type { ChangeLog } from './changes.js'
import { argsKey, argsMatch } from './compare-values.js'
import type { IndexPair, MatchMode } from './types.js'
import type { CallView, TurnView } from './view.js'

class CallIndex {
  readonly #calls: readonly CallView[]
  readonly #used: Uint8Array
  readonly #byKey = new Map<string, number[]>()
  readonly #byName = new Map<string, number[]>()
  /** Per candidate list, how many of its first entries are used (so long runs of one call stay linear). */
  readonly #cursor = new Map<number[], number>()

  constructor(calls: readonly CallView[]) {
    this.#calls = calls
    this.#used = new Uint8Array(calls.length)
    calls.forEach((call, i) => {
      pushTo(this.#byName, call.name, i)
      const key = argsKey(call.rule, call.args)
      if (key !== undefined) pushTo(this.#byKey, `${call.name}\u0000${key}`, i)
    })
  }

  /** Takes the first unused call that matches `expected`; -1 when none does. */
  take(expected: CallView): number {
    const rule = expected.rule
    const key = argsKey(rule, expected.args)
    const candidates = key === undefined ? this.#byName.get(expected.name) : this.#byKey.get(`${expected.name}\u0000${key}`)
    if (candidates === undefined) return -1
    let start = this.#cursor.get(candidates) ?? 0
    while (start < candidates.length && this.#used[candidates[start]!] === 1) start++
    this.#cursor.set(candidates, start)
    for (let c = start; c < candidates.length; c++) {
      const i = candidates[c]!
      if (this.#used[i] === 1) continue
      if (key === undefined && !argsMatch(rule, expected.args, this.#calls[i]!.args)) continue
      this.#used[i] = 1
      return i
    }
    return -1
  }

  unused(): number[] {
    return this.#calls.flatMap((_, i) => (this.#used[i] === 1 ? [] : [i]))
  }
}

const counts: Record<Exclude<MatchMode, 'strict'>, { missing: boolean; extra: boolean }> = {
  unordered: { missing: true, extra: true },
  subset: { missing: false, extra: true },
  superset: { missing: true, extra: false },
}

export function compareUnordered(
  mode: Exclude<MatchMode, 'strict'>,
  expectedTurns: readonly TurnView[],
  actualTurns: readonly TurnView[],
  pairs: readonly Pair[],
  log: ChangeLog,
): void {
  // Which turn each turn was aligned with, so a change can name both sides.
  const partnerOfExpected = new Map<number, number>()
  const partnerOfActual = new Map<number, number>()
  for (const pair of pairs) {
    if (pair.expected === null || pair.actual === null) continue
    partnerOfExpected.set(expectedTurns[pair.expected]!.index, actualTurns[pair.actual]!.index)
    partnerOfActual.set(actualTurns[pair.actual]!.index, expectedTurns[pair.expected]!.index)
  }
  const turnOfExpected = (turn: number): IndexPair => ({ expected: turn, actual: partnerOfExpected.get(turn) ?? null })
  const turnOfActual = (turn: number): IndexPair => ({ expected: partnerOfActual.get(turn) ?? null, actual: turn })

  // What the model was given is compared turn by turn, in the aligned pairs.
  for (const pair of pairs) {
    if (pair.expected === null || pair.actual === null) continue
    const [e, a] = [expectedTurns[pair.expected]!, actualTurns[pair.actual]!]
    log.callInputs(e, a, { expected: e.index, actual: a.index })
  }

  const expected = expectedTurns.flatMap((t) => t.calls)
  const actual = actualTurns.flatMap((t) => t.calls)
  const index = new CallIndex(actual)
  const missing: CallView[] = []
  for (const call of expected) {
    const i = index.take(call)
    if (i === -1) missing.push(call)
    else log.compareCalls(call, actual[i]!, { expected: call.turn, actual: actual[i]!.turn })
  }

  const extraByName = new Map<string, CallView[]>()
  for (const i of index.unused()) pushTo(extraByName, actual[i]!.name, actual[i]!)
  for (const call of missing) {
    const counterpart = extraByName.get(call.name)?.shift()
    if (counterpart !== undefined) log.compareCalls(call, counterpart, { expected: call.turn, actual: counterpart.turn })
    else if (counts[mode].missing) log.call('removed', call, turnOfExpected(call.turn))
  }
  if (counts[mode].extra) {
    for (const extras of extraByName.values()) for (const call of extras) log.call('added', call, turnOfActual(call.turn))
  }

  const finalAnswer = (turns: readonly TurnView[]): TurnView | undefined => turns.findLast((t) => t.responseText !== null)
  const [e, a] = [finalAnswer(expectedTurns), finalAnswer(actualTurns)]
  if (e !== undefined || a !== undefined) {
    log.responseText(e, a, { expected: e?.index ?? null, actual: a?.index ?? null })
  }
}
