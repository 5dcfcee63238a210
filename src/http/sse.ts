/**
 * Server-Sent Events, the one codec both ways: a body's text read back as its
 * events, and events sent as a body the way a provider's server sends them
 * (one event at a time, as the reader pulls, cut off with the abort reason
 * when the request's signal fires, as `fetch` does). Replayed streams
 * (adapter-support/recorded-fetch.ts) and scripted ones (fake/fetch) both
 * send through here, so a replay and a fake write the same bytes.
 */
import type { JsonValue } from '../base/json.js'

/**
 * One event: its `event:` name when the API names its events, and its
 * `data:` as JSON, or as `text` where it is not JSON (OpenAI's `[DONE]`).
 * A recording's `RecordedEvent` is this shape.
 */
export type SseEvent = { event?: string; data: JsonValue } | { event?: string; text: string }

const encoder = new TextEncoder()

/** The events of an event stream's text: `data` parsed as JSON where it is JSON, else kept as `text` (`[DONE]`). */
export function parseEventStream(text: string): SseEvent[] {
  const events: SseEvent[] = []
  let name: string | undefined
  let data: string[] = []
  const dispatch = (): void => {
    if (data.length > 0) {
      const payload = data.join('\n')
      let parsed: JsonValue | undefined
      try {
        parsed = JSON.parse(payload) as JsonValue
      } catch {
        parsed = undefined
      }
      const base = name === undefined ? {} : { event: name }
      events.push(parsed === undefined ? { ...base, text: payload } : { ...base, data: parsed })
    }
    name = undefined
    data = []
  }
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      dispatch()
      continue
    }
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'event') name = value
    else if (field === 'data') data.push(value)
  }
  // A stream cut off without its last blank line: readers flush what they have, and so does this.
  dispatch()
  return events
}

/** One event as the wire carries it; a multi-line `text` is one `data:` line each. */
function eventText(event: SseEvent): string {
  const payload = 'data' in event ? JSON.stringify(event.data) : event.text
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}${payload
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`
}

/** A body sending `events` one per pull, failing with the abort reason when `signal` fires. */
export function eventStreamBody(events: readonly SseEvent[], signal: AbortSignal | null | undefined): ReadableStream<Uint8Array> {
  let next = 0
  let onAbort: (() => void) | undefined
  const stop = (): void => {
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort)
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (signal === undefined || signal === null) return
      if (signal.aborted) return controller.error(signal.reason)
      onAbort = () => controller.error(signal.reason)
      signal.addEventListener('abort', onAbort, { once: true })
    },
    pull(controller) {
      const event = events[next++]
      if (event !== undefined) {
        controller.enqueue(encoder.encode(eventText(event)))
        return
      }
      controller.close()
      stop()
    },
    cancel: stop,
  })
}
