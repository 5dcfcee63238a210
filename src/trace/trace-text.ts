/**
 * The bytes of trace files, produced in pieces: the top-level fields, then
 * the turns a batch at a time. No string of a whole file is ever built, so a
 * trace of any size can be written (one JSON.stringify of a 1,000,000-turn
 * trace passes V8's string limit), and the pieces are exactly the text one
 * JSON.stringify would have made.
 *
 *   runFileChunks(trace)       a run: key order kept, 2-space indent, trailing newline
 *   goldenFileChunks(trace)    a golden (already in normal form): keys sorted, times as floats
 *
 * A run's message histories are written as what is new since an earlier call
 * (see messages.ts); a golden's are written in full, every call's whole list,
 * since a golden is read in review and its bytes must depend on behaviour
 * only. Each piece can go through a redactor before it is written.
 */
import { encodeMessages } from './messages.js'
import { sortKeys, writeFloats } from './serialize.js'
import type { TurnFragments } from './turn-fragments.js'
import type { JsonValue, Trace, Turn } from './types.js'

/** Removes secrets from each piece of a trace before it is written (a copy: the value itself is left alone). */
export interface PieceRedactor {
  redact<T extends JsonValue>(value: T): T
}

/** Turns per JSON.stringify call to start with (one: a first turn may be huge); adjusted so one piece stays near PIECE_CHARS. */
const FIRST_BATCH = 1
const MAX_BATCH = 4096
/**
 * Small enough for V8 to make each piece in its young generation, where it
 * dies at the next scavenge once written: a larger string goes to the large
 * object space, freed only by a full collection of the whole heap, and a
 * 1,000,000-turn file's pieces grew the heap by half the trace before one came.
 */
const PIECE_CHARS = 64 << 10

type TurnText = (turns: readonly Turn[], at: number) => unknown

/** `[items]` at the indent of trace.turns, without the brackets: the turns as they sit in the file. */
function itemsText(items: unknown[], golden: boolean): string {
  const text = JSON.stringify({ t: items }, null, 2)
  // `{\n  "t": [\n` ... `\n  ]\n}`: the items at 4 spaces, as trace.turns holds them.
  const inner = text.slice('{\n  "t": [\n'.length, text.length - '\n  ]\n}'.length)
  return golden ? writeFloats(inner) : inner
}

/**
 * The JSON text of `items` as file pieces: one piece normally; should the
 * text pass V8's string limit (a few turns of hundreds of megabytes), the
 * batch is split in halves until each piece fits.
 */
function* safeItemsText(items: unknown[], golden: boolean): Generator<string> {
  let text: string
  try {
    text = itemsText(items, golden)
  } catch (error) {
    if (!(error instanceof RangeError) || items.length === 1) throw error
    const half = Math.ceil(items.length / 2)
    yield* safeItemsText(items.slice(0, half), golden)
    yield* safeItemsText(items.slice(half), golden)
    return
  }
  yield text
}

function* turnPieces(
  turns: readonly Turn[],
  toFile: TurnText,
  golden: boolean,
  redactor: PieceRedactor | undefined,
  fragments: TurnFragments | undefined,
): Generator<string> {
  let batch = FIRST_BATCH
  let first = true
  for (let start = 0; start < turns.length; ) {
    // Text made while the session recorded, for turns unchanged since: used as it is.
    const kept = fragments?.textFrom(turns, start)
    if (kept !== undefined) {
      yield first ? kept.text : `,\n${kept.text}`
      first = false
      start = kept.end
      continue
    }
    let end = Math.min(turns.length, start + batch)
    if (fragments !== undefined) end = fragments.nextCurrent(turns, start + 1, end)
    let items: unknown[] = new Array(end - start)
    for (let i = start; i < end; i++) items[i - start] = toFile(turns, i)
    if (redactor !== undefined) items = redactor.redact(items as JsonValue[])
    let chars = 0
    for (const piece of safeItemsText(items, golden)) {
      chars += piece.length
      yield first ? piece : `,\n${piece}`
      first = false
    }
    // Big turns (long tool outputs) make smaller batches, small ones bigger, never more than 4x at a step.
    const average = Math.max(1, chars / (end - start))
    batch = Math.max(1, Math.min(MAX_BATCH, batch * 4, Math.floor(PIECE_CHARS / average)))
    start = end
  }
}

/**
 * The text of `items` (turns as the run file holds them, already redacted)
 * as they sit in the file: at 4 spaces, joined by `,\n`. Undefined when it
 * would pass V8's string limit (the file's writer then cuts them finer).
 */
export function runTurnsText(items: unknown[]): string | undefined {
  try {
    return itemsText(items, false)
  } catch (error) {
    if (error instanceof RangeError) return undefined
    throw error
  }
}

/** The text of an object's keys inside its braces, at the top level of the file. */
function fieldsText(fields: Record<string, unknown>, golden: boolean): string {
  const text = JSON.stringify(fields, null, 2)
  const inner = text.length <= 2 ? '' : text.slice(2, text.length - 2)
  return golden ? writeFloats(inner) : inner
}

function* fileChunks(
  fields: Record<string, unknown>,
  keys: readonly string[],
  turns: readonly Turn[],
  toFile: TurnText,
  golden: boolean,
  redactor: PieceRedactor | undefined,
  fragments?: TurnFragments,
): Generator<string> {
  const at = keys.indexOf('turns')
  const part = (names: readonly string[]): string => {
    if (names.length === 0) return ''
    const picked: Record<string, unknown> = Object.create(null) as Record<string, unknown>
    for (const name of names) picked[name] = fields[name]
    return fieldsText(redactor === undefined ? picked : (redactor.redact(picked as JsonValue) as Record<string, unknown>), golden)
  }
  const before = part(keys.slice(0, at))
  const after = part(keys.slice(at + 1))
  yield `{\n${before}${before === '' ? '' : ',\n'}`
  if (turns.length === 0) yield '  "turns": []'
  else {
    yield '  "turns": [\n'
    yield* turnPieces(turns, toFile, golden, redactor, fragments)
    yield '\n  ]'
  }
  yield `${after === '' ? '' : ',\n'}${after}\n}\n`
}

/** Turn `at` as a run file holds it (its messages as what is new since an earlier call), before redaction. */
export function runTurn(turns: readonly Turn[], at: number): Turn {
  const turn = turns[at]!
  const call = encodeMessages(turns, at)
  return call === turn.llm_call ? turn : { ...turn, llm_call: call }
}

/**
 * The text of a run's file (as `JSON.stringify(trace, null, 2)` would write
 * it), in pieces. `fragments`: turn text made while the session recorded,
 * with the same redactor, used for every turn unchanged since.
 */
export function runFileChunks(trace: Trace, redactor?: PieceRedactor, fragments?: TurnFragments): Generator<string> {
  const keys = Object.keys(trace)
  return fileChunks(trace as Record<string, unknown>, keys.includes('turns') ? keys : [...keys, 'turns'], trace.turns, runTurn, false, redactor, fragments)
}

const TIMESTAMP = new Set(['timestamp'])

/** A golden's turn: its call's messages in full, never `messages_base` (the run file's compression). */
function goldenTurn(turns: readonly Turn[], at: number): unknown {
  const turn = turns[at]!
  const floats = new WeakMap<object, ReadonlySet<string>>([[turn.llm_call, TIMESTAMP]])
  for (const call of turn.llm_call.tool_calls) floats.set(call, TIMESTAMP)
  return sortKeys(turn as unknown as JsonValue, floats)
}

const TRACE_TIMES = new Set(['started_at', 'ended_at'])

/** The top-level fields of a golden trace but its turns, as sorted trees with their times marked as floats. */
function goldenFields(trace: Trace): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(trace)) {
    if (key === 'turns') continue
    const value = trace[key] as JsonValue
    fields[key] =
      key === 'grade' && value !== null && typeof value === 'object'
        ? sortKeys(value, new WeakMap([[value, new Set(['graded_at'])]]))
        : sortKeys(value, undefined, TRACE_TIMES.has(key))
  }
  return fields
}

/** The text of a golden file for a trace already in normal form: sorted keys, times written as floats, in pieces. */
export function goldenFileChunks(trace: Trace, redactor?: PieceRedactor): Generator<string> {
  const fields = goldenFields(trace)
  const keys = [...Object.keys(fields), 'turns'].sort()
  return fileChunks(fields, keys, trace.turns, goldenTurn, true, redactor)
}

/**
 * A golden trace (in normal form) as its file holds it, as one value: for a
 * golden nested in another's file (a golden's other accepted variants). Set
 * as a field of the trace given to `goldenFileChunks`, it is written as
 * that trace's own file would write it, one level deeper.
 */
export function goldenValue(trace: Trace): JsonValue {
  const fields = goldenFields(trace)
  fields['turns'] = trace.turns.map((_, at) => goldenTurn(trace.turns, at))
  const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(fields).sort()) sorted[key] = fields[key]
  return sorted as JsonValue
}

/** All the pieces as one string: for files known to be small (and tests). */
export function joinChunks(chunks: Iterable<string>): string {
  let text = ''
  for (const chunk of chunks) text += chunk
  return text
}
