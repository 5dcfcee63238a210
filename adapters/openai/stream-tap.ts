/**
 * Watches an SDK `Stream` without changing it. A Stream reads its events
 * through its `iterator` function, and so do `[Symbol.asyncIterator]`,
 * `tee()` and `toReadableStream()`; replacing that one function lets every
 * way of reading be observed, while the Stream object, its `controller` and
 * its methods stay the SDK's own.
 */

export interface StreamLike {
  iterator: () => AsyncIterator<unknown>
  tee: () => unknown
  controller: unknown
}

export function isStream(value: unknown): value is StreamLike {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Partial<StreamLike>).iterator === 'function' &&
    typeof (value as Partial<StreamLike>).tee === 'function'
  )
}

/**
 * Calls `onEvent` for each event read and `onEnd` once: when the stream is
 * read to its end, when the reader stops early (`break`), or when reading
 * fails (with the error, which still reaches the reader). Returns a function
 * that ends the watch now (for a stream nobody reads to the end).
 *
 * Only the first reading is watched: a stream can be read once (a second
 * `for await` fails in the SDK), and `tee()` reads it once for both halves.
 */
export function tapStream(stream: StreamLike, onEvent: (event: unknown) => void, onEnd: (error?: unknown) => void): () => void {
  let ended = false
  const end = (error?: unknown): void => {
    if (ended) return
    ended = true
    onEnd(error)
  }
  const source = stream.iterator
  let tapped = false
  stream.iterator = function (this: unknown): AsyncIterator<unknown> {
    const inner = source.call(this)
    if (tapped) return inner
    tapped = true
    return {
      async next(...args: [] | [undefined]) {
        let result: IteratorResult<unknown>
        try {
          result = await inner.next(...args)
        } catch (error) {
          end(error)
          throw error
        }
        if (result.done === true) end()
        else onEvent(result.value)
        return result
      },
      async return(value?: unknown) {
        try {
          return inner.return === undefined ? { done: true, value } : await inner.return(value)
        } finally {
          end()
        }
      },
      async throw(error?: unknown) {
        try {
          if (inner.throw === undefined) throw error
          return await inner.throw(error)
        } catch (thrown) {
          end(thrown)
          throw thrown
        }
      },
    }
  }
  return end
}
