/**
 * `diffTraces(expected, actual, options)`: what differs between two traces,
 * as data. Turns are aligned on their tool-call signatures (LCS), so one
 * inserted turn is one insertion; then the mode decides which differences
 * count (see strict.ts and unordered.ts).
 */
import { checkNesting } from '../trace/depth.js'
import type { Trace } from '../trace/types.js'
import { align } from './align.js'
import { ChangeLog } from './changes.js'
import { resolveDiffOptions, type ResolvedDiffOptions } from './options.js'
import { compareStrict, TURN_LEVELS } from './strict.js'
import type { DiffOptions, TraceChange, TraceDiff, TurnPair } from './types.js'
import { compareUnordered } from './unordered.js'
import { buildViews, type TurnView } from './view.js'

function checkTrace(value: unknown, which: string): asserts value is Trace {
  if (value === null || typeof value !== 'object' || !Array.isArray((value as { turns?: unknown }).turns)) {
    throw new TypeError(`diffTraces(): ${which} must be a trace (an object with turns); got ${value === null ? 'null' : typeof value}.`)
  }
}

/** Changes in the order of the turns and calls they belong to (the order-free modes find them call by call). */
function sortByTurn(changes: TraceChange[], pairs: readonly TurnPair[]): TraceChange[] {
  const positionOfExpected = new Map<number, number>()
  const positionOfActual = new Map<number, number>()
  pairs.forEach((pair, position) => {
    if (pair.expected !== null) positionOfExpected.set(pair.expected, position)
    if (pair.actual !== null) positionOfActual.set(pair.actual, position)
  })
  const position = (c: TraceChange): number =>
    (c.turn.expected === null ? undefined : positionOfExpected.get(c.turn.expected)) ??
    (c.turn.actual === null ? undefined : positionOfActual.get(c.turn.actual)) ??
    pairs.length
  const callIndex = (c: TraceChange): number => c.call?.actual ?? c.call?.expected ?? Number.MAX_SAFE_INTEGER
  return changes
    .map((change, order) => ({ change, order, position: position(change), call: callIndex(change) }))
    .sort((x, y) => x.position - y.position || x.call - y.call || x.order - y.order)
    .map((x) => x.change)
}

function turnPairs(pairs: ReturnType<typeof align>, expected: readonly TurnView[], actual: readonly TurnView[], changes: readonly TraceChange[]): TurnPair[] {
  const touchedExpected = new Set(changes.map((c) => c.turn.expected))
  const touchedActual = new Set(changes.map((c) => c.turn.actual))
  return pairs.map(({ expected: e, actual: a }): TurnPair => {
    const expectedIndex = e === null ? null : expected[e]!.index
    const actualIndex = a === null ? null : actual[a]!.index
    const status =
      expectedIndex === null
        ? 'added'
        : actualIndex === null
          ? 'removed'
          : touchedExpected.has(expectedIndex) || touchedActual.has(actualIndex)
            ? 'changed'
            : 'equal'
    return { expected: expectedIndex, actual: actualIndex, status }
  })
}

/** `diffTraces` with options already checked (the golden engine resolves them once). */
export function diffResolved(expected: Trace, actual: Trace, options: ResolvedDiffOptions): TraceDiff {
  const expectedTurns = buildViews(expected, options)
  const actualTurns = buildViews(actual, options)
  const pairs = align(expectedTurns, actualTurns, TURN_LEVELS)
  const log = new ChangeLog()
  if (options.mode === 'strict') compareStrict(expectedTurns, actualTurns, pairs, log)
  else compareUnordered(options.mode, expectedTurns, actualTurns, pairs, log)
  const turns = turnPairs(pairs, expectedTurns, actualTurns, log.list)
  const changes = options.mode === 'strict' ? log.list : sortByTurn(log.list, turns)
  return { equal: changes.length === 0, mode: options.mode, turns, changes }
}

/**
 * What differs between `expected` (e.g. a golden baseline) and `actual`, as
 * data: the aligned turns and every change with its JSON path. Compared: tool
 * names, arguments, results and errors, response text, and each call's model
 * name and system prompt where both sides recorded them (`ignore: ['model',
 * 'system_prompt']` leaves them out). Never compared: ids, timestamps,
 * durations, token usage, the other messages, metadata. A trace nested more
 * than 1,000 levels deep is refused with the `TraceFormatError` (rule
 * `depth`) the reader would give for its file.
 *
 * @example
 * const diff = diffTraces(loadGolden('refund-agent'), s.trace, { args: { tools: { search: 'ignore' } } })
 * if (!diff.equal) console.log(formatDiff(diff))
 */
export function diffTraces(expected: Trace, actual: Trace, options?: DiffOptions): TraceDiff {
  checkTrace(expected, 'expected')
  checkTrace(actual, 'actual')
  checkNesting(expected)
  checkNesting(actual)
  return diffResolved(expected, actual, resolveDiffOptions(options))
}
