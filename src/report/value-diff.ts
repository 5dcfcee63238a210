/**
 * A changed value shown so that the change can be seen, however long the
 * value: the one formatter behind trace diffs (goldens, `reagent-flow diff`,
 * `approve`) and assertion messages that compare two strings.
 *
 * - Short values stay on one line: `"paris" → "rome"`.
 * - A long one-line string: a word diff, every changed word shown, with
 *   CONTEXT_WORDS unchanged words around each change and the rest elided as
 *   `…(57 words)…`, wrapped at WIDTH columns.
 * - A multi-line string, or a long JSON value (pretty, keys sorted): a line
 *   diff with CONTEXT_LINES unchanged lines around each change (`…(14
 *   lines)…`); a changed line that replaces one line is shown as a word diff.
 *
 * Nothing that differs is ever elided. With colour, removed text is red and
 * struck through, added text green and underlined; without, it is marked as
 * `git diff --word-diff=plain` marks it: `[-removed-]{+added+}`.
 */
import { diffPackage } from '../base/diff-package.js'
import { stringifyStable } from '../trace/serialize.js'
import type { JsonValue } from '../trace/types.js'
import type { Colors } from './colors.js'
import { fitsOneLine, oneLine, plural } from './format-value.js'

/** Columns of a diff's body line (its indentation aside). */
export const WIDTH = 100
/** Values whose JSON is longer than this are diffed rather than shown side by side. */
export const INLINE_WIDTH = 80
const CONTEXT_WORDS = 8
const CONTEXT_LINES = 2
/** Longer texts are compared by their common start and end only: a word diff of megabytes costs seconds. */
const MAX_WORD_DIFF = 100_000
const MAX_EDITS = 1_000

/** A changed value: on one line after its label, or as lines under it. */
export type ShownChange = { inline: string } | { lines: string[] }

type Kind = 'same' | 'removed' | 'added' | 'elided'
interface Piece {
  kind: Kind
  text: string
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROLS = /[\u0000-\u001f\u007f]/g

/** Control characters as JSON writes them, so a tab or a carriage return is seen. */
function escapeControls(text: string): string {
  return text.replace(CONTROLS, (ch) => (ch === '\u007f' ? '\\u007f' : JSON.stringify(ch).slice(1, -1)))
}

function paint(kind: Kind, text: string, c: Colors): string {
  switch (kind) {
    case 'removed':
      return c.red(c.strikethrough(text))
    case 'added':
      return c.green(c.underline(text))
    case 'elided':
      return c.dim(text)
    case 'same':
      return text
  }
}

const elision = (count: number, unit: string): string => `…(${plural(count, unit)})…`

/** Words and the whitespace between them, in order. */
const tokens = (text: string): string[] => text.split(/(\s+)/).filter((token) => token !== '')
const countWords = (list: readonly string[]): number => list.filter((token) => !/^\s/.test(token)).length

/** The first (or last) `words` words of `list`, with the whitespace between them, as one string. */
function takeWords(list: readonly string[], words: number, fromEnd: boolean): { text: string; used: number } {
  let taken = 0
  let used = 0
  const order = fromEnd ? [...list].reverse() : list
  for (const token of order) {
    const isWord = !/^\s/.test(token)
    if (isWord && taken === words) break
    if (isWord) taken++
    used++
  }
  const picked = fromEnd ? list.slice(list.length - used) : list.slice(0, used)
  return { text: picked.join(''), used }
}

/** An unchanged stretch with only CONTEXT_WORDS words kept next to each change (`before`: a change precedes it; `after`: one follows). */
function shortenSame(text: string, before: boolean, after: boolean): Piece[] {
  const list = tokens(text)
  const head = before ? takeWords(list, CONTEXT_WORDS, false) : { text: '', used: 0 }
  const tail = after ? takeWords(list.slice(head.used), CONTEXT_WORDS, true) : { text: '', used: 0 }
  const middle = list.slice(head.used, list.length - tail.used)
  const hidden = countWords(middle)
  // Elide only what saves room: a word or two is shown rather than counted.
  if (hidden <= 2) return [{ kind: 'same', text }]
  const pieces: Piece[] = []
  if (head.text !== '') pieces.push({ kind: 'same', text: head.text })
  const lead = /^\s/.test(middle[0] ?? '') ? ' ' : ''
  const trail = /^\s/.test(middle[middle.length - 1] ?? '') ? ' ' : ''
  if (lead !== '') pieces.push({ kind: 'same', text: lead })
  pieces.push({ kind: 'elided', text: elision(hidden, 'word') })
  if (trail !== '') pieces.push({ kind: 'same', text: trail })
  if (tail.text !== '') pieces.push({ kind: 'same', text: tail.text })
  return pieces
}

/**
 * The word-level changes from `expected` to `actual`. Past MAX_WORD_DIFF
 * characters, or MAX_EDITS changed words (two unrelated long answers, where
 * Myers' diff grows with length times edits), their common start and end
 * around one replaced middle: still every difference, shown as one.
 */
function wordChanges(expected: string, actual: string): Piece[] {
  if (expected.length + actual.length <= MAX_WORD_DIFF) {
    const parts = diffPackage().diffWordsWithSpace(expected, actual, { maxEditLength: MAX_EDITS })
    if (parts !== undefined) return parts.map((part) => ({ kind: part.added ? 'added' : part.removed ? 'removed' : 'same', text: part.value }))
  }
  let start = 0
  while (start < expected.length && start < actual.length && expected[start] === actual[start]) start++
  let end = 0
  while (end < expected.length - start && end < actual.length - start && expected[expected.length - 1 - end] === actual[actual.length - 1 - end]) end++
  // Whole words only: the common start ends, and the common end starts, at whitespace.
  while (start > 0 && !/\s/.test(expected[start - 1]!)) start--
  while (end > 0 && !/\s/.test(expected[expected.length - end]!)) end--
  const pieces: Piece[] = [{ kind: 'same', text: expected.slice(0, start) }]
  pieces.push({ kind: 'removed', text: expected.slice(start, expected.length - end) }, { kind: 'added', text: actual.slice(start, actual.length - end) })
  pieces.push({ kind: 'same', text: expected.slice(expected.length - end) })
  return pieces.filter((piece) => piece.text !== '')
}

/** The word diff of two one-line texts, unchanged stretches shortened to their context. */
function wordPieces(expected: string, actual: string): Piece[] {
  const parts = wordChanges(expected, actual)
  // Nothing differs (two equal lines paired by the line diff): the text as it is.
  if (parts.every((part) => part.kind === 'same')) return [{ kind: 'same', text: expected }]
  return parts.flatMap((part, i) => (part.kind === 'same' ? shortenSame(part.text, i > 0, i < parts.length - 1) : [part]))
}

/**
 * Pieces wrapped into lines of at most `width` visible columns, breaking at
 * whitespace where it can. Without colour, changed text carries its markers.
 * A line's own indentation (pretty JSON's) is kept, on its wrapped parts too.
 */
function wrapPieces(pieces: readonly Piece[], width: number, c: Colors, colored: boolean): string[] {
  interface Atom {
    kind: Kind
    text: string
  }
  const atoms: Atom[] = []
  for (const piece of pieces) {
    const text = escapeControls(piece.text)
    const marked = colored || (piece.kind !== 'removed' && piece.kind !== 'added') ? text : piece.kind === 'removed' ? `[-${text}-]` : `{+${text}+}`
    // An elision is one unbreakable atom: `…(57 words)…` never splits over two lines.
    for (const token of piece.kind === 'elided' ? [marked] : tokens(marked)) {
      for (let at = 0; at < token.length; at += width) atoms.push({ kind: piece.kind, text: token.slice(at, at + width) })
    }
  }
  const first = atoms[0]
  const indent = first !== undefined && first.kind === 'same' && /^ +$/.test(first.text) && first.text.length < width / 2 ? atoms.shift()!.text : ''
  const lines: string[] = []
  let line = indent
  let length = indent.length
  for (const atom of atoms) {
    if (length > indent.length && length + atom.text.length > width) {
      lines.push(line.trimEnd())
      line = indent
      length = indent.length
    }
    // An unchanged space where a line breaks is the break itself.
    if (length === indent.length && atom.kind === 'same' && /^\s+$/.test(atom.text)) continue
    line += paint(atom.kind, atom.text, c)
    length += atom.text.length
  }
  if (length > indent.length) lines.push(line)
  return lines
}

function lineOf(mark: string, text: string, c: Colors, colored: boolean, width: number): string[] {
  const kind: Kind = mark === '-' ? 'removed' : mark === '+' ? 'added' : 'same'
  const wrapped = wrapPieces([{ kind: 'same', text }], width - 2, c, colored)
  const sign = kind === 'removed' ? c.red : kind === 'added' ? c.green : (s: string) => s
  return (wrapped.length === 0 ? [''] : wrapped).map((part, i) => sign(`${i === 0 ? mark : ' '} ${part}`))
}

/** A line diff of two multi-line texts: `-`, `+` and `~` (a line changed word by word) lines, unchanged ones around each change. */
function lineDiff(expected: string, actual: string, c: Colors, colored: boolean, width = WIDTH): string[] {
  const parts = diffPackage().diffArrays(expected.split('\n'), actual.split('\n'))
  const out: string[] = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    const next = parts[i + 1]
    if (part.removed && next?.added && next.value.length === part.value.length) {
      // A run of lines replaced one for one: each pair as a word diff.
      part.value.forEach((line, k) => {
        const wrapped = wrapPieces(wordPieces(line, next.value[k]!), width - 2, c, colored)
        wrapped.forEach((text, j) => void out.push(`${j === 0 ? c.yellow('~') : ' '} ${text}`))
      })
      i++
      continue
    }
    if (part.removed || part.added) {
      for (const line of part.value) out.push(...lineOf(part.removed ? '-' : '+', line, c, colored, width))
      continue
    }
    const lines = part.value
    const keepBefore = i > 0 ? CONTEXT_LINES : 0
    const keepAfter = i < parts.length - 1 ? CONTEXT_LINES : 0
    const hidden = lines.length - keepBefore - keepAfter
    if (hidden <= 1) {
      for (const line of lines) out.push(...lineOf(' ', line, c, colored, width))
      continue
    }
    for (const line of lines.slice(0, keepBefore)) out.push(...lineOf(' ', line, c, colored, width))
    out.push(c.dim(`  ${elision(hidden, 'line')}`))
    for (const line of lines.slice(lines.length - keepAfter)) out.push(...lineOf(' ', line, c, colored, width))
  }
  return out
}

function isJson(value: unknown): value is JsonValue {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol' && typeof value !== 'bigint'
}

/** Pretty JSON with sorted keys, so two values differ only where their content does. */
function prettyJson(value: JsonValue): string {
  try {
    return stringifyStable(value).trimEnd()
  } catch {
    return oneLine(value, MAX_WORD_DIFF)
  }
}

/**
 * How the change from `expected` to `actual` is shown (see the file's
 * comment). `c` decides the colours and, when they are off, the markers.
 */
export function showChange(expected: unknown, actual: unknown, c: Colors): ShownChange {
  if (fitsOneLine(expected, INLINE_WIDTH) && fitsOneLine(actual, INLINE_WIDTH)) {
    return { inline: `${oneLine(expected, INLINE_WIDTH)} ${c.dim('→')} ${oneLine(actual, INLINE_WIDTH)}` }
  }
  const colored = c.isColorSupported
  if (typeof expected === 'string' && typeof actual === 'string') {
    if (expected.includes('\n') || actual.includes('\n')) return { lines: lineDiff(expected, actual, c, colored) }
    return { lines: wrapPieces(wordPieces(expected, actual), WIDTH, c, colored) }
  }
  if (!isJson(expected) || !isJson(actual)) {
    return { inline: `${oneLine(expected, INLINE_WIDTH)} ${c.dim('→')} ${oneLine(actual, INLINE_WIDTH)}` }
  }
  return { lines: lineDiff(prettyJson(expected), prettyJson(actual), c, colored) }
}

/**
 * A value on one side only (an added or removed system prompt): on one line
 * when short; a long string in full, wrapped, so no part of what was added
 * or removed is cut off. Other long values keep their one-line form.
 */
export function showOneSide(value: unknown, c: Colors): ShownChange {
  if (typeof value !== 'string' || fitsOneLine(value, INLINE_WIDTH)) return { inline: oneLine(value, INLINE_WIDTH) }
  const colored = c.isColorSupported
  return { lines: value.split('\n').flatMap((line) => wrapPieces([{ kind: 'same', text: line }], WIDTH, c, colored)) }
}

/** The change as text: inline, or its lines each indented by `indent`, on the lines after the label. */
export function changeText(expected: unknown, actual: unknown, c: Colors, indent: string): string {
  const shown = showChange(expected, actual, c)
  return 'inline' in shown ? shown.inline : shown.lines.map((line) => `\n${indent}${line}`).join('')
}

/**
 * Two texts as a word diff however short they are (a line diff when either
 * has several lines): for descriptions, where one changed word is the news.
 */
export function wordDiffLines(expected: string, actual: string, c: Colors): string[] {
  const colored = c.isColorSupported
  if (expected.includes('\n') || actual.includes('\n')) return lineDiff(expected, actual, c, colored)
  return wrapPieces(wordPieces(expected, actual), WIDTH, c, colored)
}
