/**
 * A tool-contract diff as text: one line per change, its class first, a
 * wording change followed by the word diff of the two texts (descriptions
 * steer the model, so every changed word is shown), then the schemas that
 * are not valid JSON Schema. The matcher, assertToolContract and
 * `reagent-flow tools diff` print it alike.
 */
import { colors as makeColors, type Colors } from '../report/colors.js'
import { wordDiffLines } from '../report/value-diff.js'
import { CHANGE_CLASSES, type ChangeClass, type ContractChange, type ContractDiff } from './types.js'

/** The class column, padded to the longest class name and a space. */
const COLUMN = Math.max(...CHANGE_CLASSES.map((name) => name.length)) + 2

const paintOf = (c: Colors): Record<ChangeClass, (text: string) => string> => ({ breaking: c.red, compatible: c.green, wording: c.yellow })

/** `2 breaking, 1 wording`: how many changes of each class, in class order; `no changes` when none. */
export function countsText(diff: ContractDiff): string {
  const parts = CHANGE_CLASSES.flatMap((name) => {
    const n = diff.changes.filter((change) => change.class === name).length
    return n === 0 ? [] : [`${n} ${name}`]
  })
  return parts.length === 0 ? 'no changes' : parts.join(', ')
}

function changeLines(change: ContractChange, c: Colors): string[] {
  const head = `  ${paintOf(c)[change.class](change.class.padEnd(COLUMN))}${change.tool}: ${change.what}`
  if (change.before === undefined || change.after === undefined) return [head]
  const indent = ' '.repeat(2 + COLUMN + 2)
  if (change.before === '') return [head, `${indent}${c.green(`{+${change.after}+}`)}`]
  if (change.after === '') return [head, `${indent}${c.red(`[-${change.before}-]`)}`]
  return [head, ...wordDiffLines(change.before, change.after, c).map((line) => `${indent}${line}`)]
}

/** The diff's lines (without a header): each change, then each schema that is not valid JSON Schema. */
export function formatContractDiff(diff: ContractDiff, { color = false }: { color?: boolean } = {}): string {
  const c = makeColors(color)
  const lines = diff.changes.flatMap((change) => changeLines(change, c))
  if (diff.changes.length === 0 && diff.invalid.length === 0) lines.push('  no changes')
  if (diff.invalid.length > 0) {
    lines.push('', '  Not valid JSON Schema (recorded and compared as given):')
    for (const problem of diff.invalid) lines.push(`    ${problem}`)
  }
  return lines.join('\n')
}
