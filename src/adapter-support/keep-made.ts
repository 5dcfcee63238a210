/**
 * What `ModelExchange.capture` does for the two shapes a model's method
 * returns: a promise of a whole response, or an async iterable of chunks.
 * The caller gets them unchanged; `done` gets their recorded form once they
 * are whole, or undefined when the call failed (a failed call is never kept).
 */
import type { RecordedResponse } from '../storage/index.js'
import type { JsonValue } from '../trace/types.js'

export type Done = (response: (() => RecordedResponse) | undefined) => void

/** Passes the promise's value on; keeps `{ value: record(value) }` when it resolves. */
export function keepResolved<T>(made: PromiseLike<T>, done: Done, record: (value: T) => JsonValue): Promise<T> {
  return Promise.resolve(made).then(
    (value) => {
      done(() => ({ value: record(value) }))
      return value
    },
    (error: unknown) => {
      done(undefined)
      throw error
    },
  )
}

/**
 * Passes the chunks on as they are read; keeps `{ chunks }` when the
 * iterable ends, or when its reader leaves it (`break`, `return()`: what the
 * agent read is what a replay gives it), not when it fails.
 */
export async function* keepIterated<T>(made: AsyncIterable<T>, done: Done, record: (chunk: T) => JsonValue): AsyncGenerator<T> {
  const chunks: T[] = []
  let isSettled = false
  try {
    for await (const chunk of made) {
      chunks.push(chunk)
      yield chunk
    }
  } catch (error) {
    isSettled = true
    done(undefined)
    throw error
  } finally {
    if (!isSettled) done(() => ({ chunks: chunks.map(record) }))
  }
}

/** Yields recorded chunks, each rebuilt by `rebuild`. */
export async function* replayChunks<T>(chunks: readonly JsonValue[], rebuild: (chunk: JsonValue) => T): AsyncGenerator<T> {
  for (const chunk of chunks) yield rebuild(chunk)
}

/** An async iterable whose first read fails with `error`. */
// biome-ignore lint/correctness/useYield: it fails on its first read, as a stream that broke before its first chunk does
export async function* failingChunks<T>(error: Error): AsyncGenerator<T> {
  throw error
}
