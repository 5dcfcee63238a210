/**
 * What instrumentOpenAI adds to a real SDK call: the same 1,000 chat
 * completions (a canned completion with a tool call, served by a local
 * node:http server) through a plain client and through an instrumented
 * client inside a session, plus the instrumented client outside any
 * session. The instrumentation's cost is measured against the plain client
 * inside the same kind of session; what the session itself costs (its async
 * context) is a line of its own. A second pair uses an in-memory `fetch` (no network), which
 * leaves little else than the SDK's and the adapter's own work to measure.
 *
 * The variants run in interleaved blocks, so load from elsewhere on the
 * machine hits them alike; an added cost is the median of the differences
 * between neighbouring blocks.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import OpenAI from 'openai'
import { session } from 'reagent-flow'
import { instrumentOpenAI } from 'reagent-flow/openai'
import type { BenchSuite } from '../run.js'
import type { Row } from '../lib/report.js'

const CALLS = 1_000
const BLOCK = 10
const WARMUP_BLOCKS = 10

const completion = readFileSync(join(import.meta.dirname, '../../fixtures/openai/chat/tool-call.json'))

async function startServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': completion.length })
      response.end(completion)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return { url: `http://127.0.0.1:${port}/v1`, close }
}

const inMemoryFetch = async (): Promise<Response> => new Response(completion, { headers: { 'content-type': 'application/json' } })

/** The request offers a tool, as an agent's every request does: the cost of recording the tools offered is in the figures. */
const request = {
  model: 'gpt-4o',
  tools: [
    {
      type: 'function' as const,
      function: {
        name: 'get_weather',
        description: 'Current weather of a city.',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
        strict: true,
      },
    },
  ],
  messages: [
    { role: 'system' as const, content: 'You are a weather assistant.' },
    { role: 'user' as const, content: 'What is the weather in Paris?' },
  ],
}

async function calls(client: OpenAI): Promise<void> {
  for (let i = 0; i < BLOCK; i++) await client.chat.completions.create(request)
}

async function recordedCalls(client: OpenAI): Promise<void> {
  const s = await session('bench-openai', { save: false }, () => calls(client))
  if (s.trace.turns.length !== BLOCK) throw new Error(`bench: expected ${BLOCK} recorded turns, got ${s.trace.turns.length}`)
}

/** The same block through the plain client inside a session: what the session costs without the adapter. */
async function plainCallsInSession(client: OpenAI): Promise<void> {
  await session('bench-openai-plain', { save: false }, () => calls(client))
}

/**
 * Wall time per call of one block, µs. No forced GC before a block (unlike
 * the other suites): a full GC every few calls makes V8 drop and recompile
 * code, which costs the variant with more code (the recording one) most.
 */
async function timeBlock(run: () => Promise<void>): Promise<number> {
  const started = performance.now()
  await run()
  return ((performance.now() - started) * 1000) / BLOCK
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

export const suite: BenchSuite = {
  name: 'openai',
  async run() {
    const server = await startServer()
    const client = (options: { fetch?: typeof fetch } = {}): OpenAI => new OpenAI({ baseURL: server.url, apiKey: 'sk-bench', maxRetries: 0, ...options })
    const plain = client()
    const instrumented = instrumentOpenAI(client())
    const memoryPlain = client({ fetch: inMemoryFetch })
    const memoryInstrumented = instrumentOpenAI(client({ fetch: inMemoryFetch }))
    const variants = {
      plain: () => calls(plain),
      plainInSession: () => plainCallsInSession(plain),
      recorded: () => recordedCalls(instrumented),
      outside: () => calls(instrumented),
      memoryPlain: () => calls(memoryPlain),
      memoryPlainInSession: () => plainCallsInSession(memoryPlain),
      memoryRecorded: () => recordedCalls(memoryInstrumented),
    }
    type Variant = keyof typeof variants
    const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, [] as number[]])) as Record<Variant, number[]>
    try {
      for (let block = 0; block < WARMUP_BLOCKS + CALLS / BLOCK; block++) {
        for (const name of Object.keys(variants) as Variant[]) {
          const perCall = await timeBlock(variants[name])
          if (block >= WARMUP_BLOCKS) samples[name].push(perCall)
        }
      }
    } finally {
      await server.close()
    }
    const of = (name: Variant): number => median(samples[name])
    const added = (name: Variant, base: Variant): number => median(samples[name].map((us, i) => us - samples[base][i]!))

    const suiteName = `instrumentOpenAI: ${CALLS.toLocaleString('en')} chat.completions.create calls, per call`
    // The instrumentation's cost is the recorded call against the plain call
    // in the same kind of session: the session itself (its async context,
    // opening and closing it every 10 calls) is reported on its own line.
    const rows: Row[] = [
      {
        suite: suiteName,
        name: 'local server: instrumented, in a session',
        value: of('plainInSession') + added('recorded', 'plainInSession'),
        unit: 'µs',
        baseline: of('plainInSession'),
        baselineName: 'plain client in a session',
        target: { max: 1.05, of: 'ratio' },
      },
      {
        suite: suiteName,
        name: 'local server: added per recorded call',
        value: added('recorded', 'plainInSession'),
        unit: 'µs',
        target: { max: 50, of: 'value' },
      },
      {
        suite: suiteName,
        name: 'local server: the session alone (plain client)',
        value: of('plain') + added('plainInSession', 'plain'),
        unit: 'µs',
        baseline: of('plain'),
        baselineName: 'plain client, no session',
      },
      {
        suite: suiteName,
        name: 'local server: instrumented, outside any session',
        value: of('plain') + added('outside', 'plain'),
        unit: 'µs',
        baseline: of('plain'),
        baselineName: 'plain client',
      },
      {
        suite: suiteName,
        name: 'in-memory fetch: instrumented, in a session',
        value: of('memoryPlainInSession') + added('memoryRecorded', 'memoryPlainInSession'),
        unit: 'µs',
        baseline: of('memoryPlainInSession'),
        baselineName: 'plain client in a session',
      },
      {
        suite: suiteName,
        name: 'in-memory fetch: added per recorded call',
        value: added('memoryRecorded', 'memoryPlainInSession'),
        unit: 'µs',
        target: { max: 50, of: 'value' },
      },
    ]
    return rows
  },
}
