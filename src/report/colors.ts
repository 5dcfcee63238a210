/**
 * The one owner of picocolors. Colour is on only when the output is a
 * terminal and NO_COLOR is not set (https://no-color.org); FORCE_COLOR turns
 * it on for tools that capture output but render ANSI.
 */
import picocolors from 'picocolors'

export type Colors = ReturnType<typeof picocolors.createColors>

/** Whether to colour text written to `stream` (default stdout). */
export function shouldColor(stream: { isTTY?: boolean } = process.stdout): boolean {
  const env = process.env
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true
  return stream.isTTY === true
}

/** Colour functions, all identity functions when `enabled` is false. */
export function colors(enabled: boolean = shouldColor()): Colors {
  return picocolors.createColors(enabled)
}
