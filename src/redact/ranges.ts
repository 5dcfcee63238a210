/**
 * What the text scanners find: spans of a string to replace. Each scanner
 * adds spans of the ORIGINAL string, in any order and possibly overlapping;
 * `replaceRanges` merges them and writes the string once, so scanners never
 * see each other's output and the cost stays linear.
 */

/** Flat pairs: start, end, start, end, ... (end exclusive). */
export type Ranges = number[]

export function addRange(ranges: Ranges, start: number, end: number): void {
  if (end > start) ranges.push(start, end)
}

/** `text` with every span of `ranges` (merged when they overlap or touch) replaced by `replacement`. */
export function replaceRanges(text: string, ranges: Ranges, replacement: string): string {
  if (ranges.length === 0) return text
  const order: number[] = []
  for (let i = 0; i < ranges.length; i += 2) order.push(i)
  order.sort((a, b) => ranges[a]! - ranges[b]! || ranges[b + 1]! - ranges[a + 1]!)
  let out = ''
  let written = 0
  let open = -1
  let close = -1
  for (const i of order) {
    const start = ranges[i]!
    const end = ranges[i + 1]!
    if (open >= 0 && start <= close) {
      if (end > close) close = end
      continue
    }
    if (open >= 0) {
      out += text.slice(written, open) + replacement
      written = close
    }
    open = start
    close = end
  }
  out += text.slice(written, open) + replacement + text.slice(close)
  return out
}

// Character classes, by code, for the hand-written scanners.

export function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
}

export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

export function isUpper(code: number): boolean {
  return code >= 65 && code <= 90
}

export function isLower(code: number): boolean {
  return code >= 97 && code <= 122
}

export function isHex(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102)
}

/** Space or tab. */
export function isBlank(code: number): boolean {
  return code === 32 || code === 9
}

/** A percent escape (`%22`) or a JSON/JS unicode escape (`\u0022`) ends right before `at`. */
export function followsEscape(text: string, at: number): boolean {
  if (at >= 3 && text.charCodeAt(at - 3) === 37 /* % */ && isHex(text.charCodeAt(at - 2)) && isHex(text.charCodeAt(at - 1))) return true
  if (at >= 6 && text.charCodeAt(at - 6) === 92 /* \ */ && text.charCodeAt(at - 5) === 117 /* u */) {
    for (let i = at - 4; i < at; i++) if (!isHex(text.charCodeAt(i))) return false
    return true
  }
  return false
}

/**
 * A match at `at` is a secret on its own, not the inside of a longer word:
 * nothing alphanumeric before it, unless a `%22` / `\u0022` escape.
 */
export function startsFree(text: string, at: number): boolean {
  return at === 0 || !isAlnum(text.charCodeAt(at - 1)) || followsEscape(text, at)
}
