/**
 * Records a streamed response while the user reads it, without changing what
 * they read.
 *
 * The SDK's `Stream` gets its events from `this[Symbol.asyncIterator]()`:
 * `for await`, `tee()`, `toReadableStream()` and `MessageStream` all go
 * through it. The tap replaces that one method on the instance, so the
 * object stays the SDK's own (`instanceof Stream`, `controller`, `tee()`),
 * and every reader sees the very event objects the SDK produced.
 *
 * The turn is recorded at `message_stop`; a stream that fails, is closed by
 * its reader (`break`, `controller.abort()`), or ends without `message_stop`
 * is recorded with what arrived and the reason it is incomplete.
 */
import { recordSafely } from '../../src/adapter-support.js'
import { ADAPTER, type CallRecording } from './call-recording.js'
import { MessageAccumulator } from './message-accumulator.js'
import type { WireEvent } from './wire.js'

const ENDED_EARLY = 'the stream ended before message_stop: the response is incomplete (was the request aborted?)'
const CLOSED_EARLY = 'the stream was closed by its reader before message_stop: the response is incomplete'

function tap(inner: AsyncIterator<unknown>, recording: CallRecording, accumulator: MessageAccumulator): AsyncIterableIterator<unknown> {
  const settle = (error?: unknown): void => {
    if (!recording.done) recordSafely(ADAPTER, 'a stream', () => recording.finish(accumulator.snapshot(), error))
  }
  const tapped: AsyncIterableIterator<unknown> = {
    async next() {
      let step: IteratorResult<unknown>
      try {
        step = await inner.next()
      } catch (error) {
        settle(error)
        throw error
      }
      if (step.done === true) {
        settle(accumulator.complete ? undefined : ENDED_EARLY)
      } else {
        const event = step.value as WireEvent
        recordSafely(ADAPTER, 'a stream event', () => accumulator.add(event))
        if (accumulator.complete) settle()
      }
      return step
    },
    async return(value?: unknown) {
      settle(accumulator.complete ? undefined : CLOSED_EARLY)
      return inner.return ? inner.return(value) : { done: true, value }
    },
    [Symbol.asyncIterator]() {
      return tapped
    },
  }
  if (inner.throw) {
    const innerThrow = inner.throw.bind(inner)
    tapped.throw = async (error?: unknown) => {
      settle(error)
      return innerThrow(error)
    }
  }
  return tapped
}

/** Taps `stream` in place so that reading it records the call. */
export function tapStream(stream: AsyncIterable<unknown>, recording: CallRecording): void {
  const accumulator = new MessageAccumulator()
  recording.partial = () => accumulator.snapshot()
  const iterate = stream[Symbol.asyncIterator].bind(stream)
  Object.defineProperty(stream, Symbol.asyncIterator, {
    value: () => tap(iterate(), recording, accumulator),
    configurable: true,
    writable: true,
  })
}
