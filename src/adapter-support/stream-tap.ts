/**
 * Watches a streamed response without changing it. The SDKs built by
 * Stainless (openai, @anthropic-ai/sdk) read a `Stream`'s events through its
 * `iterator` function, and so do `[Symbol.asyncIterator]`, `tee()`,
 * `toReadableStream()` and their stream helpers; replacing that one function
 * on the instance lets every way of reading be observed, while the Stream
 * object, its `controller` and its methods stay the SDK's own. Any other
 * async iterable is watched through its `[Symbol.asyncIterator]`.
 *
 * Shapes only: no SDK type is imported here.
 */
import { reportRecordingFailure } from '../warnings/record-safely.js'

/**
 * How a stream's reading ended: read to its end, closed by its reader
 * (`break`, `return()`), aborted (an SDK `Stream` whose `controller` was
 * aborted ends quietly, as if read to its end), or failed.
 */
export type StreamEnd = { how: 'done' } | { how: 'return' } | { how: 'abort' } | { how: 'error'; error: unknown }

export interface StreamWatch<Event = unknown> {
  /** Each event read, in order, until the stream ends or this throws. */
  onEvent(event: Event): void
  /** Once, however reading ended; also after `onEvent` threw. */
  onEnd(end: StreamEnd): void
}

type Iterate = (this: unknown) => AsyncIterator<unknown>

/** An SDK `Stream`, or any other async iterable object. */
export function isStream(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false
  const { iterator, [Symbol.asyncIterator]: iterate } = value as { iterator?: unknown; [Symbol.asyncIterator]?: unknown }
  return typeof iterator === 'function' || typeof iterate === 'function'
}

/**
 * Reports the events of the first reading of `stream` to `watch`, and how it
 * ended. Only the first reading is watched: a stream can be read once (a
 * second `for await` fails in the SDK), and `tee()` reads it once for both
 * halves. A watch that throws never reaches the reader: it is reported once
 * for `adapter`, then given no more events.
 */
export function tapStream(stream: object, adapter: string, watch: StreamWatch): void {
  const key = typeof (stream as { iterator?: unknown }).iterator === 'function' ? 'iterator' : Symbol.asyncIterator
  const source = (stream as Record<PropertyKey, unknown>)[key] as Iterate
  let isTapped = false
  Object.defineProperty(stream, key, {
    configurable: true,
    writable: true,
    value: function (this: unknown): AsyncIterator<unknown> {
      const inner = source.call(this)
      if (isTapped) return inner
      isTapped = true
      return tapIterator(inner, adapter, watch, () => isAborted(stream))
    },
  })
}

/** True when the stream's `controller` (an SDK `Stream` has one) was aborted. */
function isAborted(stream: object): boolean {
  const { controller } = stream as { controller?: { signal?: { aborted?: unknown } } }
  return controller?.signal?.aborted === true
}

function tapIterator(
  inner: AsyncIterator<unknown>,
  adapter: string,
  watch: StreamWatch,
  wasAborted: () => boolean,
): AsyncIterator<unknown> & AsyncIterable<unknown> {
  let isWatching = true
  let hasEnded = false
  const end = (how: StreamEnd): void => {
    if (hasEnded) return
    hasEnded = true
    isWatching = false
    try {
      watch.onEnd(how)
    } catch (error) {
      reportRecordingFailure(adapter, 'the end of a stream', error)
    }
  }
  const tapped: AsyncIterator<unknown> & AsyncIterable<unknown> = {
    async next(...args: [] | [undefined]) {
      let step: IteratorResult<unknown>
      try {
        step = await inner.next(...args)
      } catch (error) {
        end({ how: 'error', error })
        throw error
      }
      if (step.done === true) end(wasAborted() ? { how: 'abort' } : { how: 'done' })
      else if (isWatching) {
        try {
          watch.onEvent(step.value)
        } catch (error) {
          isWatching = false
          reportRecordingFailure(adapter, 'a streamed event', error)
        }
      }
      return step
    },
    async return(value?: unknown) {
      try {
        return inner.return === undefined ? { done: true, value } : await inner.return(value)
      } finally {
        end({ how: 'return' })
      }
    },
    async throw(error?: unknown) {
      try {
        if (inner.throw === undefined) throw error
        return await inner.throw(error)
      } catch (thrown) {
        end({ how: 'error', error: thrown })
        throw thrown
      }
    },
    [Symbol.asyncIterator]() {
      return tapped
    },
  }
  return tapped
}
