/**
 * `asResponse()` hands the agent the raw HTTP response with its body unread,
 * and the SDK never parses it. The adapter reads a clone of it (the agent's
 * copy stays untouched): the message JSON, or the event stream through the
 * SDK's own SSE parser and the same tap as a parsed stream.
 */
import type { CallRecording } from './call-recording.js'
import { tapStream } from './tap-stream.js'
import type { WireMessage } from './wire.js'

async function readEvents(copy: Response, recording: CallRecording): Promise<void> {
  const { Stream } = await import('@anthropic-ai/sdk/core/streaming')
  const stream = Stream.fromSSEResponse(copy, new AbortController())
  tapStream(stream, recording)
  for await (const event of stream) void event
}

/** Records the call from a clone of `response`; call it before the agent reads the body. */
export function recordRawResponse(response: Response, recording: CallRecording, isStream: boolean): void {
  const copy = response.clone()
  const reading = isStream ? readEvents(copy, recording) : copy.json().then((message: unknown) => recording.finish(message as WireMessage))
  recording.track(reading.catch((error: unknown) => recording.finish(recording.partial(), error)))
}
