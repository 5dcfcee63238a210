/**
 * Response bodies as a provider's server sends them: JSON in one piece, a
 * stream one Server-Sent Event at a time, as the reader pulls, and cut off
 * with the abort reason when the request's signal fires, as `fetch` does.
 */
import type { SseEvent } from './wire-format.js'

const encoder = new TextEncoder()

export function sseText({ event, data }: SseEvent): string {
  const payload = data === '[DONE]' ? data : JSON.stringify(data)
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`
}

export function eventStreamBody(events: readonly SseEvent[], signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let next = 0
  let onAbort: (() => void) | undefined
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (signal === undefined) return
      onAbort = () => controller.error(signal.reason)
      signal.addEventListener('abort', onAbort, { once: true })
    },
    pull(controller) {
      const event = events[next++]
      if (event !== undefined) {
        controller.enqueue(encoder.encode(sseText(event)))
        return
      }
      controller.close()
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort)
    },
    cancel() {
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort)
    },
  })
}
