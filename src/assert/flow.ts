/**
 * `assertFlow`: the sequence of tool names matches a pattern, anchored at
 * both ends, where `'...'` stands for any run of calls (also none).
 *
 *   ['search', 'summarize']              exactly these two calls
 *   ['search', '...', 'summarize']       search first, summarize last
 *   ['...', 'search', '...']             search anywhere
 */
import type { Trace } from '../trace/types.js'
import { toTrace, type TraceSource } from './arguments.js'
import { closestName } from './facts.js'
import { fail } from './fail.js'
import { render } from './render.js'
import { toolNames } from './tool-calls.js'

/** The gap marker of `assertFlow` patterns. */
export const ANY_CALLS = '...'

function checkPattern(pattern: unknown): readonly string[] {
  if (!Array.isArray(pattern)) {
    throw new TypeError(`assertFlow(): pattern must be an array of tool names and '...', got ${render(pattern)}.`)
  }
  pattern.forEach((item, i) => {
    if (typeof item !== 'string') {
      const type = item === null ? 'null' : typeof item
      throw new TypeError(`assertFlow(): pattern[${i}] must be a tool name string or '...', got ${render(item)} (${type}).`)
    }
  })
  return pattern as string[]
}

/** reagent-flow 0.5 prints the gap bare: `["search", ..., "summarize"]`. */
function formatPattern(pattern: readonly string[]): string {
  return `[${pattern.map((item) => (item === ANY_CALLS ? ANY_CALLS : JSON.stringify(item))).join(', ')}]`
}

/** Pattern names the agent never called, each with the called name it probably meant. */
function unknownNames(pattern: readonly string[], called: readonly string[]): string | undefined {
  const missing = [...new Set(pattern.filter((item) => item !== ANY_CALLS && !called.includes(item)))]
  if (missing.length === 0) return undefined
  const described = missing.map((name) => {
    const suggestion = closestName(name, called)
    return suggestion === undefined ? `"${name}"` : `"${name}" (did you mean ${suggestion}?)`
  })
  return `never called at all: ${described.join(', ')}`
}

/** Whether `names` occur in `flat` in this order, other calls allowed between them. */
function isSubsequence(names: readonly string[], flat: readonly string[]): boolean {
  let next = 0
  for (const name of flat) if (name === names[next]) next++
  return next === names.length
}

/**
 * When the calls hold the pattern's names in order but not where its anchors
 * put them, the pattern that says "in this order, anywhere" (the question
 * a failed flow usually asks).
 */
function inOrderHint(pattern: readonly string[], flat: readonly string[]): string | undefined {
  const names = pattern.filter((item) => item !== ANY_CALLS)
  if (names.length === 0 || !isSubsequence(names, flat)) return undefined
  const loose = [ANY_CALLS, ...names.flatMap((name) => [name, ANY_CALLS])]
  return `the calls include ${render(names)} in this order, with other calls around them; a pattern is anchored at both ends and '...' is any run of calls: ${formatPattern(loose)} passes`
}

function failFlow(trace: Trace, detail: string, pattern: readonly string[], flat: readonly string[]): never {
  fail(trace, `Flow mismatch: ${detail}. Pattern: ${formatPattern(pattern)}, actual: ${render(flat)}`, {
    causes: [unknownNames(pattern, flat), inOrderHint(pattern, flat)],
    diff: { actual: [...flat], expected: [...pattern] },
  })
}

/**
 * Passes when the tool-call names, flattened across turns, match `pattern`.
 * An empty or all-`'...'` pattern always passes.
 * @example assertFlow(trace, ['lookup_order', '...', 'issue_refund'])
 */
export function assertFlow(source: TraceSource, pattern: readonly string[]): void {
  const trace = toTrace('assertFlow', source)
  const items = checkPattern(pattern)
  const flat = toolNames(trace)
  const normalized = items.filter((item, i) => !(item === ANY_CALLS && items[i - 1] === ANY_CALLS))
  if (normalized.every((item) => item === ANY_CALLS)) return

  // Runs of names between gaps; the first is anchored at the start unless a gap leads.
  const segments: string[][] = [[]]
  for (const item of normalized) {
    if (item === ANY_CALLS) segments.push([])
    else segments.at(-1)!.push(item)
  }
  const anchoredStart = normalized[0] !== ANY_CALLS
  const anchoredEnd = normalized.at(-1) !== ANY_CALLS

  let cursor = 0
  segments.forEach((segment, i) => {
    if (segment.length === 0) return
    if (i === 0 && anchoredStart) {
      segment.forEach((name, j) => {
        const at = cursor + j
        if (flat[at] !== name) {
          failFlow(trace, `expected "${name}" at position ${at}, got ${flat[at] === undefined ? '<end>' : `"${flat[at]}"`}`, items, flat)
        }
      })
      cursor += segment.length
      return
    }
    for (let start = cursor; start + segment.length <= flat.length; start++) {
      if (segment.every((name, j) => flat[start + j] === name)) {
        cursor = start + segment.length
        return
      }
    }
    failFlow(trace, `could not find ${render(segment)} after position ${cursor}`, items, flat)
  })
  if (anchoredEnd && cursor !== flat.length) failFlow(trace, `unexpected trailing calls ${render(flat.slice(cursor))}`, items, flat)
}
