/**
 * What a scripted model costs a test, per model call through the real OpenAI
 * SDK: scriptedFetch (reading the request, playing a step, writing the
 * provider's JSON or its Server-Sent Events) against the cheapest fetch there
 * is (an in-memory canned completion, nothing parsed or written) and against
 * the local HTTP server the adapter tests use for canned answers.
 *
 * The variants run in interleaved blocks, so load from elsewhere on the
 * machine hits them alike; each figure is the median of its blocks.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import OpenAI from 'openai'
import { scriptedFetch, type Script } from 'reagent-flow/fake'
import type { BenchSuite } from '../run.js'
import type { Row } from '../lib/report.js'

const CALLS = 1_000
const BLOCK = 10
const WARMUP_BLOCKS = 10

const completion = readFileSync(join(import.meta.dirname, '../../fixtures/openai/chat/tool-call.json'))
const request = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'What is the weather in Paris?' }] }
const block: Script = Array.from({ length: BLOCK }, () => ({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }))

async function startServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((incoming, response) => {
    incoming.resume()
    incoming.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': completion.length })
      response.end(completion)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Wall time per call of one block of calls, µs. */
async function timeBlock(client: OpenAI, stream: boolean): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < BLOCK; i++) {
    if (!stream) await client.chat.completions.create(request)
    else for await (const _chunk of await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }));
  }
  return ((performance.now() - started) * 1000) / BLOCK
}

function median(samples: readonly number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!
}

export const suite: BenchSuite = {
  name: 'fake',
  async run() {
    const server = await startServer()
    const inMemory = async (): Promise<Response> => new Response(completion, { headers: { 'content-type': 'application/json' } })
    const client = (options: ConstructorParameters<typeof OpenAI>[0]) => new OpenAI({ apiKey: 'sk-bench', maxRetries: 0, ...options })
    const variants = {
      memory: () => timeBlock(client({ fetch: inMemory }), false),
      server: () => timeBlock(client({ baseURL: server.url }), false),
      scripted: () => timeBlock(client({ fetch: scriptedFetch(block) }), false),
      scriptedStream: () => timeBlock(client({ fetch: scriptedFetch(block) }), true),
    }
    type Variant = keyof typeof variants
    const samples: Record<Variant, number[]> = { memory: [], server: [], scripted: [], scriptedStream: [] }
    try {
      for (let i = 0; i < WARMUP_BLOCKS + CALLS / BLOCK; i++) {
        for (const name of Object.keys(variants) as Variant[]) {
          const perCall = await variants[name]()
          if (i >= WARMUP_BLOCKS) samples[name].push(perCall)
        }
      }
    } finally {
      await server.close()
    }
    const suiteName = `scriptedFetch: ${CALLS.toLocaleString('en')} chat.completions.create calls of the OpenAI SDK, per call`
    const memory = median(samples.memory)
    const rows: Row[] = [
      {
        suite: suiteName,
        name: 'scriptedFetch, JSON',
        value: median(samples.scripted),
        unit: 'µs',
        baseline: memory,
        baselineName: 'in-memory canned fetch',
        target: { max: 3, of: 'ratio' },
      },
      {
        suite: suiteName,
        name: 'scriptedFetch, streamed (SSE, usage chunk)',
        value: median(samples.scriptedStream),
        unit: 'µs',
        baseline: memory,
        baselineName: 'in-memory canned fetch',
      },
      {
        suite: suiteName,
        name: 'local HTTP server, canned JSON',
        value: median(samples.server),
        unit: 'µs',
        baseline: memory,
        baselineName: 'in-memory canned fetch',
      },
    ]
    return rows
  },
}
