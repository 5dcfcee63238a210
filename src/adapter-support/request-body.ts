/**
 * A `fetch` request as the recording sees it: method, path below the
 * client's base URL (so a recording made against one server answers a
 * client pointed at another), and its body in normal form. A JSON body (what
 * model calls send) is kept as its text and read only when it is needed; a
 * body that can be read once (a stream) is read now, and the request is
 * sent on with the bytes read.
 */
import { digestOf, normalizeRequest, NOT_THE_ANSWER } from '../replay/normalize.js'
import type { JsonValue } from '../trace/types.js'

type Input = string | URL | Request

export interface FetchRequest {
  method: string
  /** The path and query below the client's base URL: `/chat/completions`. */
  path: string
  /** The request's body in normal form; computed when called. */
  normal: () => JsonValue
  /** The body when it is text (what model calls send, JSON): a replay keys the call from it in one pass. */
  text: string | undefined
  /** The body asked for a stream (`"stream": true`): a failure is delivered as a stream's. */
  isStream: () => boolean
  /** What to call the real `fetch` with: the same, or with a stream body replaced by its bytes. */
  input: Input
  init: RequestInit | undefined
}

function urlOf(input: Input): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
}

/** The part of `url` below `baseURL`, with its query; the URL's path when it is not below it. */
export function pathBelow(url: string, baseURL: string): string {
  const base = baseURL.replace(/\/+$/, '')
  if (base !== '' && url.startsWith(base) && (url.length === base.length || '/?'.includes(url[base.length]!))) {
    const rest = url.slice(base.length)
    return rest.startsWith('/') ? rest : `/${rest}`
  }
  const parsed = new URL(url, 'http://localhost')
  return `${parsed.pathname}${parsed.search}`
}

/** A file of a form, its keys in sorted order as every part of a normal form is (a replayed call's key is its text). */
function fileEntry(file: File, bytes: Uint8Array): JsonValue {
  const { bytes: size, sha256 } = digestOf(bytes)
  return { bytes: size, file: file.name, sha256, type: file.type }
}

/** A JSON body in normal form; any other text as `{ text }`. */
function textBody(text: string): JsonValue {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { text }
  }
  return normalizeRequest(parsed, { omit: NOT_THE_ANSWER })
}

async function formBody(form: FormData): Promise<JsonValue> {
  const fields: JsonValue[] = []
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields.push([name, value])
    else fields.push([name, fileEntry(value, new Uint8Array(await value.arrayBuffer()))])
  }
  return { form: fields }
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/**
 * Reads the request `fetch(input, init)` would send: at once for a text
 * body or none (what model calls send), in a promise for a body that must
 * be read first.
 */
export function readFetchRequest(input: Input, init: RequestInit | undefined, baseURL: string): FetchRequest | Promise<FetchRequest> {
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
  const path = pathBelow(urlOf(input), baseURL)
  const body = init?.body ?? null
  const request: FetchRequest = { method, path, normal: () => null, text: undefined, isStream: () => false, input, init }
  if (typeof body === 'string') {
    request.text = body
    let normal: JsonValue | undefined
    request.normal = () => (normal ??= textBody(body))
    request.isStream = () => /"stream"\s*:\s*true/.test(body)
    return request
  }
  if (body === null && !(input instanceof Request && input.body !== null)) return request
  return readBody(request, body, input, init)
}

async function readBody(request: FetchRequest, body: unknown, input: Input, init: RequestInit | undefined): Promise<FetchRequest> {
  if (body instanceof URLSearchParams) {
    request.normal = () => ({ text: body.toString() })
  } else if (body instanceof FormData) {
    const form = await formBody(body)
    request.normal = () => form
  } else if (body instanceof ReadableStream) {
    // Read once, so it is keyed and sent on as the same bytes.
    const bytes = await bytesOf(body as ReadableStream<Uint8Array>)
    request.init = { ...init, body: bytes }
    request.normal = () => digestOf(bytes)
  } else if (body instanceof Blob) {
    const bytes = new Uint8Array(await body.arrayBuffer())
    request.normal = () => digestOf(bytes)
  } else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    const view = body instanceof ArrayBuffer ? new Uint8Array(body) : new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
    request.normal = () => digestOf(view)
  } else if (body === null && input instanceof Request) {
    const text = await input.clone().text()
    request.text = text
    request.normal = () => textBody(text)
  }
  return request
}
