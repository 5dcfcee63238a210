/**
 * `scriptedFetch(script)`: a `fetch` for the OpenAI and Anthropic SDKs (and
 * everything built on them) that answers each model call with the next step
 * of a script, in the provider's own wire format, picked by the request path.
 * An error step is a real HTTP error response, so the SDK raises and retries
 * it by its own rules; an error of ours (a script run out, a step that is not
 * one, a request we do not speak) reaches the caller as itself.
 */
import { responseFailingWith } from '../../http/failing-response.js'
import { eventStreamBody } from '../../http/sse.js'
import { UnsupportedRequestError } from '../errors.js'
import { isRecord, withToolNames } from '../request.js'
import { RETRY_HEADERS } from '../retry-headers.js'
import { ScriptCursor, type Reply } from '../script-cursor.js'
import type { ErrorStep, Script, ScriptProgress, ScriptRequest } from '../types.js'
import { anthropicMessages } from './anthropic-messages.js'
import { openaiChat } from './openai-chat.js'
import { openaiResponses } from './openai-responses.js'
import type { ReplyContext, WireFormat } from './wire-format.js'

/** A `fetch` that plays a script; also tells how far it got. */
export interface ScriptedFetch extends ScriptProgress {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>
}

const ROUTES: ReadonlyArray<readonly [pathEnd: string, format: WireFormat]> = [
  ['/chat/completions', openaiChat],
  ['/responses', openaiResponses],
  ['/messages', anthropicMessages],
]

export function scriptedFetch(script: Script): ScriptedFetch {
  const cursor = new ScriptCursor(script, 'scriptedFetch')
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const { method, url, path } = describe(input, init)
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined)
    // As fetch does: a request whose signal has fired is never sent.
    signal?.throwIfAborted()
    const format = method === 'POST' ? ROUTES.find(([pathEnd]) => path.endsWith(pathEnd))?.[1] : undefined
    if (format === undefined) return responseFailingWith(new UnsupportedRequestError(method, url, 'it is not a model call'), { stream: false })

    const call = cursor.claim()
    const asked = { stream: false }
    try {
      const body = await jsonBody(input, init, method, url)
      const parsed = format.parse(body)
      asked.stream = parsed.stream
      const request: ScriptRequest = {
        call,
        api: format.api,
        model: parsed.model,
        messages: withToolNames(parsed.messages),
        tools: parsed.tools,
        stream: parsed.stream,
        body,
      }
      const context: ReplyContext = {
        call,
        model: parsed.model ?? 'scripted-model',
        body,
        created: Math.floor(Date.now() / 1000),
        requestId: `req_scripted_${call}`,
      }
      const resolved = await cursor.resolve(
        request,
        `${method} ${path}${parsed.model === undefined ? '' : `, model "${parsed.model}"`}`,
        format.toolCallIdPrefix,
      )
      if (resolved.kind === 'error') return errorResponse(format, resolved.error, context)
      return replyResponse(format, resolved.reply, context, parsed.stream, signal ?? undefined)
    } catch (error) {
      // Ours or the test's (a script run out, a bad step, a throwing function step): the caller must get it as it is.
      return responseFailingWith(error, asked)
    }
  }
  return Object.defineProperties(fetch, {
    requests: { get: () => cursor.requests, enumerable: true },
    remaining: { get: () => cursor.remaining, enumerable: true },
  }) as ScriptedFetch
}

function replyResponse(format: WireFormat, reply: Reply, context: ReplyContext, stream: boolean, signal: AbortSignal | undefined): Response {
  const headers = { [format.requestIdHeader]: context.requestId }
  if (!stream) return Response.json(format.json(reply, context), { headers })
  return new Response(eventStreamBody(format.events(reply, context), signal), {
    headers: { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
  })
}

function errorResponse(format: WireFormat, error: ErrorStep['error'], context: ReplyContext): Response {
  return Response.json(format.errorBody(error, context), {
    status: error.status,
    headers: { [format.requestIdHeader]: context.requestId, ...RETRY_HEADERS },
  })
}

function describe(input: string | URL | Request, init: RequestInit | undefined): { method: string; url: string; path: string } {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
  return { method, url, path: new URL(url, 'http://localhost').pathname.replace(/\/+$/, '') }
}

async function jsonBody(input: string | URL | Request, init: RequestInit | undefined, method: string, url: string): Promise<Record<string, unknown>> {
  const text = typeof init?.body === 'string' ? init.body : await new Request(input, init).text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new UnsupportedRequestError(method, url, 'its body is not JSON')
  }
  if (!isRecord(body)) throw new UnsupportedRequestError(method, url, 'its body is not a JSON object')
  return body
}
