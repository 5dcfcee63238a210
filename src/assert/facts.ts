/**
 * Facts about a trace that explain a failure better than the failure itself:
 * the tool name the test probably meant, what the agent did instead, a call
 * repeated with the same arguments. Each returns a sentence, or undefined
 * when it has nothing to say.
 */
import { oneLine, oneLineText } from '../report/format-value.js'
import type { Trace } from '../trace/types.js'
import { flattenToolCalls } from './tool-calls.js'
import { editDistance } from '../report/edit-distance.js'

const simplify = (name: string): string => name.toLowerCase().replace(/[-_\s.]/g, '')

/**
 * The candidate that `name` is most likely a misspelling of: same letters
 * ignoring case and separators, one containing the other, or a few edits apart.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: { candidate: string; distance: number } | undefined
  const wanted = simplify(name)
  for (const candidate of new Set(candidates)) {
    if (candidate === name) continue
    const other = simplify(candidate)
    const distance = editDistance(wanted, other)
    const contains = Math.min(wanted.length, other.length) >= 3 && (wanted.includes(other) || other.includes(wanted))
    const close = distance <= Math.max(2, Math.floor(Math.max(wanted.length, other.length) / 4))
    if ((contains || close) && (best === undefined || distance < best.distance)) best = { candidate, distance }
  }
  return best?.candidate
}

function turnsOf(trace: Trace, tool: string): number[] {
  const turns = flattenToolCalls(trace)
    .filter((r) => r.call.name === tool)
    .map((r) => r.turn.index)
  return [...new Set(turns)]
}

function turnList(turns: readonly number[]): string {
  return turns.length === 1 ? `turn ${turns[0]}` : `turns ${turns.join(', ')}`
}

/** `"search" was called in turns 0 (2 calls), 3`: where each call of `tool` happened. */
export function whereCalled(trace: Trace, tool: string): string {
  const perTurn = new Map<number, number>()
  for (const { call, turn } of flattenToolCalls(trace)) if (call.name === tool) perTurn.set(turn.index, (perTurn.get(turn.index) ?? 0) + 1)
  const parts = [...perTurn].map(([turn, n]) => (n === 1 ? `${turn}` : `${turn} (${n} calls)`))
  return `"${tool}" was called in turn${parts.length === 1 ? '' : 's'} ${parts.join(', ')}`
}

/** `did you mean "lookup_order"? It was called in turn 0.` when `tool` looks like a typo of a called tool. */
export function didYouMean(trace: Trace, tool: string): string | undefined {
  const called = flattenToolCalls(trace).map((r) => r.call.name)
  const suggestion = closestName(tool, called)
  if (suggestion === undefined) return undefined
  return `no tool named "${tool}" was called; did you mean ${suggestion}? "${suggestion}" was called in ${turnList(turnsOf(trace, suggestion))}`
}

/** What the agent did: the tools it called (with turns) and its last text answer. */
export function whatWasCalled(trace: Trace): string {
  if (trace.turns.length === 0) return 'the trace has no turns: no LLM call was recorded (is the client instrumented, and called inside the session?)'
  const names = [...new Set(flattenToolCalls(trace).map((r) => r.call.name))]
  const shown = names.slice(0, 6).map((name) => `${name} (${turnList(turnsOf(trace, name))})`)
  if (names.length > 6) shown.push(`${names.length - 6} more`)
  const answer = trace.turns.findLast((turn) => turn.llm_call.response_text !== null)
  const answered = answer === undefined ? '' : `, and answered in turn ${answer.index}: “${oneLineText(answer.llm_call.response_text ?? '', 80)}”`
  return names.length === 0 ? `the agent called no tool${answered}` : `the agent called ${shown.join(', ')}${answered}`
}

/** The call made most often with identical arguments, when one was made at least three times. */
export function repeatedCall(trace: Trace): string | undefined {
  const groups = new Map<string, { name: string; args: unknown; turns: number[] }>()
  for (const { call, turn } of flattenToolCalls(trace)) {
    const key = `${call.name}\u0000${JSON.stringify(call.arguments)}`
    const group = groups.get(key) ?? { name: call.name, args: call.arguments, turns: [] }
    group.turns.push(turn.index)
    groups.set(key, group)
  }
  let top: { name: string; args: unknown; turns: number[] } | undefined
  for (const group of groups.values()) if (top === undefined || group.turns.length > top.turns.length) top = group
  if (top === undefined || top.turns.length < 3) return undefined
  const turns = [...new Set(top.turns)]
  return `${top.name}(${oneLine(top.args, 60)}) was called ${top.turns.length} times with the same arguments (${turnList(turns)}): the agent may be looping`
}
