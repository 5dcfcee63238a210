/**
 * Two long strings an assertion compared, as the words that differ: for
 * messages that would otherwise print two walls of text to compare by eye.
 * Plain text (`[-expected-]{+got+}`), as every assertion message is.
 */
import { colors } from '../report/colors.js'
import { showChange } from '../report/value-diff.js'

/** Indentation of the diff under its cause, past the `PROBABLE CAUSE: ` label. */
const INDENT = ' '.repeat(18)

/**
 * The diff of `expected` and `actual` under a `title` line (`body ([-expected-]{+got+}):`),
 * each line indented to sit under the cause it follows; undefined unless both
 * are strings too long to read side by side.
 */
export function stringDiffLines(title: string, expected: unknown, actual: unknown): string[] | undefined {
  if (typeof expected !== 'string' || typeof actual !== 'string') return undefined
  const shown = showChange(expected, actual, colors(false))
  if (!('lines' in shown)) return undefined
  return [`${INDENT}${title}`, ...shown.lines.map((line) => `${INDENT}  ${line}`)]
}
