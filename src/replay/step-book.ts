/**
 * Recorded steps, ready to answer: by key, each key's steps in recorded
 * order, and the model calls of each endpoint in recorded order. Each step
 * is keyed, and a recorded JSON body written as the text a replay answers
 * with, once, when the book is opened: a call only compares or looks up.
 * A step answers once; calls with the same key take the recorded
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
  /** A recorded JSON body (`response.body`) as the text a replay answers with: written once, when the book is opened. */
  readonly bodyText: string | undefined
  used: boolean
}

function bodyTextOf(step: StepRecord): string | undefined {
  if (step.kind !== 'exchange') return undefined
  const { response } = step
  return 'body' in response && 'status' in response ? JSON.stringify(response.body) : undefined
}

/** The steps of one key, in recorded order, and the next one to answer with. */
interface Queue {
  readonly entries: BookEntry[]
  next: number
}

export class StepBook {
  readonly entries: readonly BookEntry[]
  readonly #byKey = new Map<string, Queue>()
  /** The model calls of each endpoint, in recorded order, and the first that may be unused. */
  readonly #byEndpoint = new Map<string, Queue>()

  constructor(steps: readonly StepRecord[]) {
    const counts = { exchange: 0, tool: 0 }
    this.entries = steps.map((step) => {
      const entry: BookEntry = { key: recordedKey(step), step, ordinal: ++counts[step.kind], bodyText: bodyTextOf(step), used: false }
      const queue = this.#byKey.get(entry.key)
      if (queue === undefined) this.#byKey.set(entry.key, { entries: [entry], next: 0 })
      else queue.entries.push(entry)
      if (step.kind === 'exchange') {
        const calls = this.#byEndpoint.get(step.endpoint)
        if (calls === undefined) this.#byEndpoint.set(step.endpoint, { entries: [entry], next: 0 })
        else calls.entries.push(entry)
      }
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

  /**
   * The first unused model call to `endpoint`, in recorded order: the one a
   * call in recorded order asks for. When its key is a call's key, it is
   * the step `take` gives that key (every step before it is used).
   */
  nextCall(endpoint: string): BookEntry | undefined {
    const calls = this.#byEndpoint.get(endpoint)
    if (calls === undefined) return undefined
    while (calls.entries[calls.next]?.used === true) calls.next++
    return calls.entries[calls.next]
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
