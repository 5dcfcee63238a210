/**
 * Recorded steps, ready to answer: by key, each key's steps in recorded
 * order. A step answers once; calls with the same key take the recorded
 * answers in order, and calls of different keys may come in any order (the
 * agent's concurrency decides it, not the recording).
 */
import type { StepRecord } from '../storage/index.js'
import { recordedKey } from './step-key.js'

export interface BookEntry {
  readonly key: string
  readonly step: StepRecord
  /** Its place among the recorded steps of its kind (1 for the first model call, or the first tool run). */
  readonly ordinal: number
  used: boolean
}

/** The steps of one key, in recorded order, and the next one to answer with. */
interface Queue {
  readonly entries: BookEntry[]
  next: number
}

export class StepBook {
  readonly entries: readonly BookEntry[]
  readonly #byKey = new Map<string, Queue>()

  constructor(steps: readonly StepRecord[]) {
    const counts = { exchange: 0, tool: 0 }
    this.entries = steps.map((step) => {
      const entry: BookEntry = { key: recordedKey(step), step, ordinal: ++counts[step.kind], used: false }
      const queue = this.#byKey.get(entry.key)
      if (queue === undefined) this.#byKey.set(entry.key, { entries: [entry], next: 0 })
      else queue.entries.push(entry)
      return entry
    })
  }

  /** The next unused step of `key`, now used; undefined when there is none left. */
  take(key: string): BookEntry | undefined {
    const queue = this.#byKey.get(key)
    const entry = queue?.entries[queue.next]
    if (entry === undefined) return undefined
    queue!.next++
    entry.used = true
    return entry
  }

  /** How many steps of `key` the book holds, used or not. */
  countOf(key: string): number {
    return this.#byKey.get(key)?.entries.length ?? 0
  }

  /** The steps never taken, in recorded order, that `counts` says matter. */
  unused(counts: (entry: BookEntry) => boolean = () => true): BookEntry[] {
    return this.entries.filter((entry) => !entry.used && counts(entry))
  }
}
