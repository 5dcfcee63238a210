/**
 * Response bodies as a provider's server sends them: JSON in one piece, a
 * stream one Server-Sent Event at a time, as the reader pulls, and cut off
 * with the abort reason when the request's signal fires, as `fetch` does
 * (adapter-support/event-stream.ts, shared with replayed streams).
 */
import { eventStreamBody as eventTextsBody } from '../../adapter-support/event-stream.js'
import type { SseEvent } from './wire-format.js'

export function sseText({ event, data }: SseEvent): string {
  const payload = data === '[DONE]' ? data : JSON.stringify(data)
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`
}

export function eventStreamBody(events: readonly SseEvent[], signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  return eventTextsBody(events.map(sseText), signal)
}
