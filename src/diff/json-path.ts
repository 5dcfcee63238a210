/**
 * JSON paths as every message writes them (`turns[2].llm_call.tool_calls[0].arguments.q`),
 * and the path patterns `ignore` accepts, where `[*]` (or `.*`) matches any index or key.
 */

export const ANY = Symbol('any')
export type Segment = string | number
export type PatternSegment = Segment | typeof ANY

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** `.key`, `["odd key"]` or `[3]`, appended to `path`. */
export function appendPath(path: string, key: Segment): string {
  if (typeof key === 'number') return `${path}[${key}]`
  if (IDENTIFIER.test(key)) return path === '' ? key : `${path}.${key}`
  return `${path}[${JSON.stringify(key)}]`
}

/** The path of `segments` from the root, as messages write it: `turns[2].llm_call.tool_calls[0]`. */
export function formatPath(segments: readonly Segment[]): string {
  let out = ''
  for (const segment of segments) out = appendPath(out, segment)
  return out
}

/**
 * Parses `turns[*].tool_results[0].result["odd key"].x`. Returns undefined
 * when the text is not a path of that form.
 */
export function parsePathPattern(text: string): PatternSegment[] | undefined {
  const segments: PatternSegment[] = []
  let rest = text
  let first = true
  while (rest !== '') {
    let match: RegExpMatchArray | null
    if ((match = rest.match(first ? /^([A-Za-z_$][\w$]*|\*)/ : /^\.([A-Za-z_$][\w$]*|\*)/)) !== null) {
      segments.push(match[1] === '*' ? ANY : match[1]!)
    } else if ((match = rest.match(/^\[(\d+|\*)\]/)) !== null) {
      segments.push(match[1] === '*' ? ANY : Number(match[1]))
    } else if ((match = rest.match(/^\[("(?:[^"\\]|\\.)*")\]/)) !== null) {
      segments.push(JSON.parse(match[1]!) as string)
    } else {
      return undefined
    }
    rest = rest.slice(match[0].length)
    first = false
  }
  return segments.length === 0 ? undefined : segments
}

function segmentMatches(pattern: PatternSegment, segment: Segment): boolean {
  return pattern === ANY || pattern === segment
}

/** True when `pattern` matches `path` or an ancestor of it (ignoring a value ignores what is inside). */
export function coversPath(pattern: readonly PatternSegment[], path: readonly Segment[]): boolean {
  if (pattern.length > path.length) return false
  for (let i = 0; i < pattern.length; i++) if (!segmentMatches(pattern[i]!, path[i]!)) return false
  return true
}

/**
 * When `pattern` reaches inside the value at `path`, the part of the pattern
 * below that value; otherwise undefined.
 */
export function patternBelow(pattern: readonly PatternSegment[], path: readonly Segment[]): PatternSegment[] | undefined {
  if (pattern.length <= path.length) return undefined
  for (let i = 0; i < path.length; i++) if (!segmentMatches(pattern[i]!, path[i]!)) return undefined
  return pattern.slice(path.length)
}
