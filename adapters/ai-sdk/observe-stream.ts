/**
 * Passes a model's stream through unchanged while the call's watch sees its
 * parts and how it ended: read to its end, cancelled by its reader, or
 * failed. The call is recorded at the `finish` part, or at that end.
 */
import type { Transformer } from 'node:stream/web'
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { runInSession, type Session, type StreamWatch } from '../../src/adapter-support/index.js'

type Part = LanguageModelV3StreamPart

// `cancel` (called when the reader cancels or the source errors) is in the
// Streams standard and in Node 21.5+ and later Node 20 releases, but not in
// @types/node 20. On older runtimes, and for a stream nobody reads to its
// end, the call is still recorded with what arrived when the session closes
// (it is one of the session's open calls until it is recorded).
type ObservingTransformer = Transformer<Part, Part> & { cancel?: (reason: unknown) => void }

export function observeStream(stream: ReadableStream<Part>, watch: StreamWatch<Part>, s: Session): ReadableStream<Part> {
  const transformer: ObservingTransformer = {
    transform(part, controller) {
      // Seen before the SDK sees it: the call is recorded at `finish`, which
      // is when the SDK starts the tools, and a tool's result needs its call
      // in the trace.
      watch.onEvent(part)
      // The SDK handles each part (and runs the tools) in the async context of
      // whoever fed the stream, which is not the session when the stream was
      // made before it (a test's ready-made stream). Handing the part on from
      // inside the session puts the SDK's handling back in it.
      runInSession(s, () => controller.enqueue(part))
    },
    flush() {
      watch.onEnd({ how: 'done' })
    },
    cancel(reason) {
      // A reader that cancels without a reason left the stream; a source that errors cancels with its error.
      watch.onEnd(reason === undefined ? { how: 'return' } : { how: 'error', error: reason })
    },
  }
  return stream.pipeThrough(new TransformStream(transformer))
}
