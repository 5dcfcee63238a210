/**
 * `formatDiff(diff)`: a `TraceDiff` as a unified view for people.
 *
 *   2 differences (strict) · - expected: 3 turns · + actual: 4 turns
 *
 *   + Turn 1 (actual)
 *   +   search({"q":"refund policy"})
 *   Turn 1 (expected) ↔ Turn 2 (actual)
 *     ~ lookup_order
 *         order_id: "42" → "43"
 */
import { colors, type Colors } from '../report/colors.js'
import { oneLine, plural } from '../report/format-value.js'
import { changeText, showOneSide } from '../report/value-diff.js'
import type { JsonObject, JsonValue } from '../trace/types.js'
import type { IndexPair, TraceChange, TraceDiff } from './types.js'

export interface FormatDiffOptions {
  /** Colour the output. Default: when stdout is a terminal and NO_COLOR is unset. @example { color: false } */
  color?: boolean
}

function sign(kind: TraceChange['kind'], c: Colors): (text: string) => string {
  return kind === 'added' ? c.green : kind === 'removed' ? c.red : c.yellow
}

function showCall(call: JsonValue | undefined): string {
  const { name, arguments: args } = call as { name: string; arguments: JsonObject }
  return `${name}(${oneLine(args, 100)})`
}

function turnLines(change: TraceChange, c: Colors): string[] {
  const side = change.kind === 'added' ? 'actual' : 'expected'
  const mark = change.kind === 'added' ? '+' : '-'
  const paint = sign(change.kind, c)
  const shown = (change.kind === 'added' ? change.actual : change.expected) as { tool_calls: JsonObject[]; response_text: string | null }
  const lines = [paint(`${mark} Turn ${change.turn[side]} (${side})`)]
  for (const call of shown.tool_calls) lines.push(paint(`${mark}   ${showCall(call)}`))
  if (shown.response_text !== null) lines.push(paint(`${mark}   ${oneLine(shown.response_text, 100)}`))
  return lines
}

function header(turn: IndexPair, c: Colors): string {
  const sides = [turn.expected === null ? '' : `Turn ${turn.expected} (expected)`, turn.actual === null ? '' : `Turn ${turn.actual} (actual)`]
  return c.bold(sides.filter((s) => s !== '').join(' ↔ '))
}

/** The name of the changed value, relative to its call or turn: `q`, `result.amount`, `error`, `tool_results[1]`. */
function label(change: TraceChange): string {
  switch (change.subject) {
    case 'arguments':
      return change.path.replace(/^turns\[\d+\]\.llm_call\.tool_calls\[\d+\]\.arguments\.?/, '') || 'arguments'
    case 'result':
    case 'error':
      return change.path.replace(/^turns\[\d+\]\.tool_results\[\d+\]\./, '')
    case 'tool_result':
      return change.tool === undefined ? change.path.replace(/^turns\[\d+\]\./, '') : 'result'
    default:
      return change.subject
  }
}

/**
 * One changed value: side by side when both are short, else a word or line
 * diff on the lines under its name (`bodyIndent` deep), so a change inside a
 * long answer or prompt is seen rather than cut off.
 */
function valueLine(change: TraceChange, indent: string, c: Colors, bodyIndent = `${indent}    `): string {
  const name = label(change)
  if (change.kind === 'changed') {
    const shown = changeText(change.expected, change.actual, c, bodyIndent)
    return `${indent}${name}:${shown.startsWith('\n') ? '' : ' '}${shown}`
  }
  const value = change.kind === 'added' ? change.actual : change.expected
  const head = `${indent}${change.kind === 'added' ? '+' : '-'} ${name}:`
  const shown = showOneSide(value, c)
  const text = 'inline' in shown ? `${head} ${shown.inline}` : [head, ...shown.lines.map((line) => `${bodyIndent}${line}`)].join('\n')
  return sign(change.kind, c)(text)
}

const callKey = (change: TraceChange): string => (change.call === undefined ? '' : `${change.tool}:${change.call.expected}:${change.call.actual}`)

function groupLines(group: readonly TraceChange[], c: Colors): string[] {
  const lines = [header(group[0]!.turn, c)]
  let currentCall = ''
  for (const change of group) {
    if (change.subject === 'tool_call') {
      currentCall = ''
      lines.push(sign(change.kind, c)(`  ${change.kind === 'added' ? '+' : '-'} ${showCall(change.kind === 'added' ? change.actual : change.expected)}`))
    } else if (change.call !== undefined) {
      if (callKey(change) !== currentCall) {
        currentCall = callKey(change)
        lines.push(`  ${c.yellow('~')} ${c.bold(change.tool!)}`)
      }
      lines.push(valueLine(change, '      ', c))
    } else {
      currentCall = ''
      lines.push(change.kind === 'changed' ? `  ${c.yellow('~')} ${valueLine(change, '', c, '      ')}` : valueLine(change, '  ', c))
    }
  }
  return lines
}

function countTurns(diff: TraceDiff, side: keyof IndexPair): string {
  const n = diff.turns.filter((t) => t[side] !== null).length
  return plural(n, 'turn')
}

/** The diff as text, ending without a newline. */
export function formatDiff(diff: TraceDiff, { color }: FormatDiffOptions = {}): string {
  const c = colors(color)
  const sides = `${c.red(`- expected: ${countTurns(diff, 'expected')}`)} · ${c.green(`+ actual: ${countTurns(diff, 'actual')}`)}`
  if (diff.changes.length === 0) return `No differences (${diff.mode}) · expected: ${countTurns(diff, 'expected')} · actual: ${countTurns(diff, 'actual')}`
  const lines = [`${plural(diff.changes.length, 'difference')} (${diff.mode}) · ${sides}`, '']
  let group: TraceChange[] = []
  const flush = (): void => {
    if (group.length > 0) lines.push(...groupLines(group, c))
    group = []
  }
  for (const change of diff.changes) {
    if (change.subject === 'turn') {
      flush()
      lines.push(...turnLines(change, c))
      continue
    }
    const previous = group[0]
    if (previous !== undefined && (previous.turn.expected !== change.turn.expected || previous.turn.actual !== change.turn.actual)) flush()
    group.push(change)
  }
  flush()
  return lines.join('\n')
}
