/**
 * The text of turns as the run file holds them, made once while the session
 * records (by the journal, as it takes each turn, from the one redacted copy
 * it also writes to its own line) and used again when the file is written.
 *
 * Text is kept per batch (the turns of one journal flush, serialised in one
 * JSON.stringify call: one call per turn costs twice as much). A turn that
 * changed after its text was made (a late tool result, an injected mark, a
 * note an adapter added) is stale: the writer serialises that turn again, and
 * only that turn, cutting its batch's text at the turns' boundaries.
 *
 * Staleness is known two ways: whoever changes a recorded turn says so
 * (`changed`, told through the session's lifecycle), and each turn's count
 * of tool results and its duration, the two things the recorder changes,
 * are compared again before the text is used.
 */
import type { Turn } from './types.js'

/** Text kept for at most this many characters in all: past it, later turns are serialised when the file is written (memory stays bounded). */
const MAX_KEPT_CHARS = 64 << 20

/** Turns [start, start + results.length) and their text, items at 4 spaces joined by `,\n`, as trace.turns holds them in the file. */
interface Batch {
  readonly start: number
  readonly text: string
  /** Per turn, what it held when its text was made: tool results, then duration. */
  readonly results: Uint32Array
  readonly durations: Float64Array
  /** The text of each turn, cut from `text` when one turn of the batch went stale. */
  pieces?: string[] | undefined
}

/** A run of current turn text: turns [from, end). */
export interface TurnText {
  readonly text: string
  readonly end: number
}

/** Where each turn ends in a batch's text: `\n    }` starts a line only where a turn closes (deeper lines are indented more; strings hold no raw line break). */
const TURN_END = '\n    },\n'

function cutPieces(text: string, count: number): string[] | undefined {
  const pieces: string[] = new Array(count)
  let from = 0
  for (let i = 0; i < count - 1; i++) {
    const end = text.indexOf(TURN_END, from)
    if (end === -1) return undefined
    pieces[i] = text.slice(from, end + TURN_END.length - 2)
    from = end + TURN_END.length
  }
  pieces[count - 1] = text.slice(from)
  return pieces
}

export class TurnFragments {
  readonly #batches: Batch[] = []
  /** Turn index → its batch (by position in #batches); -1 or absent: none. */
  readonly #batchOf: number[] = []
  readonly #stale = new Set<number>()
  #chars = 0

  /**
   * Keeps `text`, the file text of `turns[start ..]` (as many turns as
   * `count`), made from them as they are now. Returns false, keeping
   * nothing, past the memory bound or when the turns are not the next ones.
   */
  add(turns: readonly Turn[], start: number, count: number, text: string): boolean {
    if (count === 0 || this.#chars + text.length > MAX_KEPT_CHARS || this.#batchOf[start] !== undefined) return false
    const results = new Uint32Array(count)
    const durations = new Float64Array(count)
    for (let i = 0; i < count; i++) {
      const turn = turns[start + i]!
      results[i] = turn.tool_results.length
      durations[i] = turn.duration_ms
    }
    const at = this.#batches.push({ start, text, results, durations }) - 1
    for (let i = 0; i < count; i++) this.#batchOf[start + i] = at
    this.#chars += text.length
    return true
  }

  /** Turn `index` changed after its text was made: it is serialised again when the file is written. */
  changed(index: number): void {
    if (this.#batchOf[index] !== undefined) this.#stale.add(index)
  }

  #isCurrent(turns: readonly Turn[], batch: Batch, index: number): boolean {
    if (this.#stale.has(index)) return false
    const turn = turns[index]
    const i = index - batch.start
    return turn !== undefined && turn.tool_results.length === batch.results[i] && turn.duration_ms === batch.durations[i]
  }

  /** The current text of the turns from `from` on (as far as it goes without a stale turn), or undefined when turn `from` has none. */
  textFrom(turns: readonly Turn[], from: number): TurnText | undefined {
    const at = this.#batchOf[from]
    if (at === undefined) return undefined
    const batch = this.#batches[at]!
    const batchEnd = batch.start + batch.results.length
    let end = from
    while (end < batchEnd && this.#isCurrent(turns, batch, end)) end++
    if (end === from) return undefined
    if (from === batch.start && end === batchEnd) return { text: batch.text, end }
    batch.pieces ??= cutPieces(batch.text, batch.results.length)
    if (batch.pieces === undefined) return undefined
    return { text: batch.pieces.slice(from - batch.start, end - batch.start).join(',\n'), end }
  }

  /** The first turn at or after `from` whose text is current, or `limit`. */
  nextCurrent(turns: readonly Turn[], from: number, limit: number): number {
    for (let i = from; i < limit; i++) {
      const at = this.#batchOf[i]
      if (at !== undefined && this.#isCurrent(turns, this.#batches[at]!, i)) return i
    }
    return limit
  }
}
