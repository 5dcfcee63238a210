/**
 * Group commit for a store's writes (run.begin, run.complete, run.grade):
 * calls that arrive together wait in one bounded queue and are handed to
 * the store as one batch, which it makes durable at once (one PostgreSQL
 * commit, one round of file writes), so a write costs a share of a commit
 * instead of a commit of its own.
 *
 * The batching window is the time the batches in flight take: a write that
 * arrives while `concurrency` batches are being made durable waits for one
 * of them and goes with the next, together with everything that arrived
 * meanwhile; a write that arrives to an idle queue waits only for the calls
 * of the same turn of the event loop. Nothing waits on a timer.
 *
 * The queue is bounded: a write that finds `capacity` writes waiting is
 * refused with WriteQueueFullError (the service answers 503 with
 * Retry-After), so a store slower than its clients costs them a retry,
 * never the server's memory.
 */
import { WriteQueueFullError } from './errors.js'

/** What the store answers for one write of a batch: its result, or the error of that write alone. */
export type BatchResult<R> = { ok: true; value: R } | { ok: false; error: unknown }

export interface WriteQueueOptions {
  /** Writes that may wait (and be in flight) at once; the next is refused. */
  capacity: number
  /** Writes in one batch at most. */
  maxBatch: number
  /** Batches being made durable at once. */
  concurrency: number
}

/** Default capacity (`serve --write-queue`): writes of a few hundred busy clients, each a few KB: a few MB at most. */
export const DEFAULT_WRITE_QUEUE = 2048

/** What the metrics see of a queue. */
export interface WriteQueueWatch {
  /** A batch of `size` writes was handed to the store. */
  batch(size: number): void
  /** A write was refused: the queue was full. */
  rejected(): void
}

/** Where a store's writes wait (the metrics read it; a shutdown drains it). */
export interface WriteQueueView {
  readonly depth: number
  readonly capacity: number
  watch(watch: WriteQueueWatch): void
  drained(): Promise<void>
}

interface Waiting<W, R> {
  write: W
  resolve: (value: R) => void
  reject: (error: unknown) => void
}

export class WriteQueue<W, R> implements WriteQueueView {
  readonly #options: WriteQueueOptions
  readonly #flush: (writes: W[]) => Promise<Array<BatchResult<R>>>
  #waiting: Array<Waiting<W, R>> = []
  #inFlight = 0
  /** Writes handed to the store and not yet answered. */
  #inBatches = 0
  #scheduled = false
  #watch: WriteQueueWatch | undefined
  #idle: Array<() => void> = []

  constructor(flush: (writes: W[]) => Promise<Array<BatchResult<R>>>, options: WriteQueueOptions) {
    this.#flush = flush
    this.#options = options
  }

  /** Writes waiting for a batch or in one. */
  get depth(): number {
    return this.#waiting.length + this.#inBatches
  }

  get capacity(): number {
    return this.#options.capacity
  }

  watch(watch: WriteQueueWatch): void {
    this.#watch = watch
  }

  /** Resolves with the write's result once its batch is durable; throws WriteQueueFullError at once when the queue is full. */
  submit(write: W): Promise<R> {
    if (this.depth >= this.#options.capacity) {
      this.#watch?.rejected()
      return Promise.reject(new WriteQueueFullError(this.#options.capacity))
    }
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ write, resolve, reject })
      this.#schedule()
    })
  }

  /** Resolves once every write submitted so far is answered (a shutdown's drain). */
  drained(): Promise<void> {
    if (this.depth === 0) return Promise.resolve()
    return new Promise((resolve) => this.#idle.push(resolve))
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= this.#options.concurrency) return
    this.#scheduled = true
    // The calls of this turn of the event loop join the batch.
    setImmediate(() => {
      this.#scheduled = false
      this.#start()
    })
  }

  #start(): void {
    while (this.#inFlight < this.#options.concurrency && this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, this.#options.maxBatch)
      this.#inFlight += 1
      this.#inBatches += batch.length
      this.#watch?.batch(batch.length)
      void this.#run(batch)
    }
  }

  async #run(batch: Array<Waiting<W, R>>): Promise<void> {
    try {
      const results = await this.#flush(batch.map((waiting) => waiting.write))
      batch.forEach((waiting, i) => {
        const result = results[i]
        if (result === undefined) waiting.reject(new Error(`the store answered ${results.length} of a batch of ${batch.length} writes`))
        else if (result.ok) waiting.resolve(result.value)
        else waiting.reject(result.error)
      })
    } catch (error) {
      for (const waiting of batch) waiting.reject(error)
    } finally {
      this.#inFlight -= 1
      this.#inBatches -= batch.length
      if (this.#waiting.length > 0) this.#schedule()
      else if (this.depth === 0) for (const resolve of this.#idle.splice(0)) resolve()
    }
  }
}
