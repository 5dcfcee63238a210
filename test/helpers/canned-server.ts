/**
 * A local HTTP server on a random port that answers SDK requests with canned
 * payloads (JSON or Server-Sent Events), and keeps every request it received
 * so tests can assert on what the SDK sent. Adapter tests point the real SDK
 * at it: no network, no hand-made fake of the SDK.
 */
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

export interface ReceivedRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown
}

export interface CannedResponse {
  status?: number
  headers?: Record<string, string>
  /** A JSON body. */
  json?: unknown
  /** A raw Server-Sent Events body (e.g. a `.sse` fixture file), sent in small chunks. */
  sse?: string
  /** Delay before answering, in ms. */
  delayMs?: number
}

export type Handler = (request: ReceivedRequest, index: number) => CannedResponse | Promise<CannedResponse>

export interface CannedServer {
  /** Base URL, e.g. `http://127.0.0.1:54321`. */
  url: string
  requests: ReceivedRequest[]
  close: () => Promise<void>
}

const FIXTURES = join(import.meta.dirname, '../../fixtures')

/** The text of a file under `fixtures/`. */
export function fixtureText(path: string): string {
  return readFileSync(join(FIXTURES, path), 'utf8')
}

/** The parsed JSON of a file under `fixtures/`. */
export function fixtureJson<T = unknown>(path: string): T {
  return JSON.parse(fixtureText(path)) as T
}

/** Answers the n-th request with the n-th response; a request past the end is a 500 naming the problem. */
export function inOrder(...responses: CannedResponse[]): Handler {
  return (_request, index) =>
    responses[index] ?? { status: 500, json: { error: { message: `canned server: no response #${index + 1} (only ${responses.length} queued)` } } }
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

async function answer(response: ServerResponse, canned: CannedResponse): Promise<void> {
  if (canned.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, canned.delayMs))
  if (canned.sse !== undefined) {
    response.writeHead(canned.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...canned.headers })
    // Small chunks that split events mid-line, as real networks do.
    for (let i = 0; i < canned.sse.length; i += 37) {
      response.write(canned.sse.slice(i, i + 37))
      await new Promise((resolve) => setImmediate(resolve))
    }
    response.end()
    return
  }
  response.writeHead(canned.status ?? 200, { 'content-type': 'application/json', ...canned.headers })
  response.end(JSON.stringify(canned.json ?? {}))
}

/** Starts a server for the current test; it is closed when the test finishes. */
export async function startCannedServer(handler: Handler): Promise<CannedServer> {
  const requests: ReceivedRequest[] = []
  const server = createServer((request, response) => {
    void (async () => {
      const received: ReceivedRequest = {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        headers: request.headers,
        body: await readBody(request),
      }
      const index = requests.push(received) - 1
      await answer(response, await handler(received, index))
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: `canned server failed: ${String(error)}` } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  onTestFinished(close)
  return { url: `http://127.0.0.1:${port}`, requests, close }
}
