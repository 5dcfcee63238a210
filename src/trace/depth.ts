/**
 * How deep a trace may nest. JSON.parse reads any depth, but JSON.stringify,
 * the golden normal form and every recursive reader overflow the call stack
 * a few thousand levels down; a file nested deeper than MAX_TRACE_DEPTH is
 * refused when it is read, as a TraceFormatError naming the file, so no
 * reader meets it. Nothing reagent-flow writes comes close: the recorder cuts
 * values at 64 levels, and reagent-flow 0.5 cannot write past Python's
 * recursion limit (1,000).
 */
export const MAX_TRACE_DEPTH = 1000
/** Segments of the path shown in the error: enough to find the field, not a thousand of them. */
const SHOWN_SEGMENTS = 8

/** The path (as segments) of a container nested deeper than `MAX_TRACE_DEPTH`, or undefined. Recursion is bounded by the limit itself. */
function tooDeep(value: unknown, depth: number): Array<string | number> | undefined {
  if (value === null || typeof value !== 'object') return undefined
  if (depth >= MAX_TRACE_DEPTH) return []
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const below = tooDeep(value[i], depth + 1)
      if (below !== undefined) {
        below.push(i)
        return below
      }
    }
    return undefined
  }
  for (const key in value) {
    const below = tooDeep((value as Record<string, unknown>)[key], depth + 1)
    if (below !== undefined) {
      below.push(key)
      return below
    }
  }
  return undefined
}

/** Where `value` nests deeper than reagent-flow reads (a JSON path, cut after a few segments), or undefined. */
export function excessiveNesting(value: unknown): string | undefined {
  const reversed = tooDeep(value, 0)
  if (reversed === undefined) return undefined
  let path = ''
  for (const segment of reversed.reverse().slice(0, SHOWN_SEGMENTS)) {
    if (typeof segment === 'number') path += `[${segment}]`
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) path += path === '' ? segment : `.${segment}`
    else path += `[${JSON.stringify(segment)}]`
  }
  return path
}
