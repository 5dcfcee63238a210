/**
 * Passes a model's stream through unchanged while a ModelCall observes its
 * parts, and logs the call once: at the `finish` part, or when the stream
 * ends, errors or is cancelled without one (with what arrived, and the error).
 */
import type { Transformer } from 'node:stream/web'
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { runInSession, type Session } from '../../src/adapter-support.js'
import type { ModelCall } from './model-call.js'
import { recordSafelyAiSdk } from './record.js'

type Part = LanguageModelV3StreamPart

// `cancel` (called when the reader cancels or the source errors) is in the
// Streams standard and in Node 21.5+ and later Node 20 releases, but not in
// @types/node 20. On older runtimes, and for a stream nobody reads to its
// end, the call is still recorded with what arrived when the session closes
// (the ModelCall is one of the session's open calls until it is logged).
type ObservingTransformer = Transformer<Part, Part> & { cancel?: (reason: unknown) => void }

export function observeStream(stream: ReadableStream<Part>, call: ModelCall, s: Session): ReadableStream<Part> {
  const end = (error?: unknown): void => {
    if (call.logged) return
    if (error !== undefined) call.fail(error)
    call.log()
  }
  const transformer: ObservingTransformer = {
    transform(part, controller) {
      if (!call.logged) {
        recordSafelyAiSdk('a stream part', () => call.observe(part))
        // Logged before the SDK sees `finish`: that is when it starts the
        // tools, and a tool's result needs its call in the trace.
        if (part.type === 'finish') call.log()
      }
      // The SDK handles each part (and runs the tools) in the async context of
      // whoever fed the stream, which is not the session when the stream was
      // made before it (a test's ready-made stream). Handing the part on from
      // inside the session puts the SDK's handling back in it.
      runInSession(s, () => controller.enqueue(part))
    },
    flush() {
      end()
    },
    cancel(reason) {
      end(reason ?? new Error('the reader cancelled the model stream before it ended'))
    },
  }
  return stream.pipeThrough(new TransformStream(transformer))
}
