/**
 * Durable recording: what the journal costs while a session records, the
 * whole of a session against the plain floor, writing at 1,000,000 turns
 * against 10,000 (linear?) and its peak memory, loading that file against
 * parsing it, and the file of an adapter-recorded
 * conversation against its distinct content.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import OpenAI from 'openai'
import { session } from 'reagent-flow'
import { validateTrace } from 'reagent-flow/files'
import { instrumentOpenAI } from 'reagent-flow/openai'
import type { BenchSuite } from '../run.js'
import { compareAsync, compareCpu } from '../lib/measure.js'
import type { Row } from '../lib/report.js'
import { pushTraceShaped, recordTurns, TURNS } from '../lib/workload.js'

const DIST = fileURLToPath(new URL('../../dist/src/entries/index.js', import.meta.url))
const DIST_FILES = fileURLToPath(new URL('../../dist/src/entries/files.js', import.meta.url))
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A 10k-turn session that gives its event loop time, so the journal's timer flushes as it would in a real agent. */
function journalled(dir: string, journal: boolean): () => Promise<unknown> {
  return () =>
    session('bench-journal', { traceDir: dir, journal }, async (s) => {
      for (let done = 0; done < TURNS; done += 1_000) {
        recordTurns(s, 1_000)
        await sleep(45)
      }
    })
}

/** Write time per turn of a saveTrace at `turns` turns, in a child process (its own heap), and its peak memory. */
function writePerTurn(turns: number, dir: string): { usPerTurn: number; peakRssMb: number; heapMb: number } {
  const script = `
    import { Session } from ${JSON.stringify(DIST)}
    import { saveTrace } from ${JSON.stringify(DIST_FILES)}
    const s = new Session('bench-write', { save: false })
    for (let i = 0; i < ${turns}; i++) {
      s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: 'query ' + i, limit: 5 } }], model: 'gpt-4o' })
      s.logToolResult('search', { result: { hits: i, top: 'doc' } })
    }
    const heap = process.memoryUsage().heapUsed
    const rounds = ${turns >= 1_000_000 ? 1 : 15}
    const times = []
    for (let r = 0; r < rounds; r++) {
      const started = performance.now()
      saveTrace(s.trace, { traceDir: ${JSON.stringify(dir)}, redact: undefined })
      times.push(performance.now() - started)
    }
    times.sort((a, b) => a - b)
    console.log(JSON.stringify({ ms: times[Math.floor(times.length / 2)], heap, rss: process.resourceUsage().maxRSS }))
  `
  const result = spawnSync(process.execPath, ['--max-old-space-size=6000', '--input-type=module', '-e', script], { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`bench: the write child failed: ${result.stderr}`)
  const { ms, heap, rss } = JSON.parse(result.stdout) as { ms: number; heap: number; rss: number }
  return { usPerTurn: (ms * 1000) / turns, peakRssMb: rss / 1024, heapMb: heap / 1e6 }
}

/** Runs `body` (an ES module's code, `path` in scope) in a child with a heap of its own; what it prints is its result. */
function inChild(body: string, path: string): number {
  const script = `import { readFileSync } from 'node:fs'\nimport { loadTrace } from ${JSON.stringify(DIST)}\nconst path = ${JSON.stringify(path)}\n${body}`
  const result = spawnSync(process.execPath, ['--max-old-space-size=6000', '--input-type=module', '-e', script], { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`bench: the load child failed: ${result.stderr}`)
  return Number(result.stdout)
}

/** `loadTrace` of the file at `path`, in ms. */
const LOAD = `const started = performance.now(); loadTrace(path); console.log(performance.now() - started)`

/**
 * `JSON.parse` of the file at `path`, in ms: the whole text cannot be one
 * string past V8's limit (about 512 MiB), so its turns are parsed in pieces
 * of 16 MB cut between turns, and every value kept, as any reader must.
 */
const PARSE = `
  const started = performance.now()
  const bytes = readFileSync(path)
  const turnClose = Buffer.from('\\n    }')
  const turnsOpen = Buffer.from('\\n  "turns": [')
  const open = bytes.indexOf(turnsOpen)
  const close = bytes.lastIndexOf(Buffer.from('\\n  ]'))
  const fields = JSON.parse(bytes.toString('utf8', 0, open + turnsOpen.length) + bytes.toString('utf8', close))
  const turns = []
  for (let start = open + turnsOpen.length; start < close; ) {
    const end = start + (16 << 20) >= close ? close : bytes.lastIndexOf(turnClose, start + (16 << 20)) + turnClose.length
    const text = bytes.toString('utf8', start, end)
    for (const turn of JSON.parse('[' + (text.startsWith(',') ? text.slice(1) : text) + ']')) turns.push(turn)
    start = end
  }
  fields.turns = turns
  console.log(performance.now() - started)
`

/** `validateTrace` (schema and depth check) of the trace in `text`, a fresh parse each run, median of 15, in ms. */
function validationMs(text: string): number {
  const times: number[] = []
  for (let run = 0; run < 18; run++) {
    const value: unknown = JSON.parse(text)
    const started = performance.now()
    validateTrace(value)
    if (run >= 3) times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

/** Load time of the 1,000,000-turn file at `path` against parsing it, the lower of two interleaved runs each. */
function loadAtScale(path: string): { loadMs: number; parseMs: number } {
  const loads: number[] = []
  const parses: number[] = []
  for (let round = 0; round < 2; round++) {
    parses.push(inChild(PARSE, path))
    loads.push(inChild(LOAD, path))
  }
  return { loadMs: Math.min(...loads), parseMs: Math.min(...parses) }
}

/** An OpenAI tool loop of `turns` calls whose tool outputs are `outputChars` long and go back to the model every call. */
async function adapterConversation(dir: string, turns: number, outputChars: number): Promise<{ fileBytes: number; distinctBytes: number }> {
  let call = 0
  const fetch = async (): Promise<Response> => {
    call += 1
    const body = {
      id: `chatcmpl-${call}`,
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: `call_${call}`, type: 'function', function: { name: 'read_page', arguments: `{"page":${call}}` } }],
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
  }
  const client = instrumentOpenAI(new OpenAI({ apiKey: 'sk-bench', fetch }))
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You read pages.' },
    { role: 'user', content: 'Read every page.' },
  ]
  const distinct = new Set<string>()
  await session('bench-conversation', { traceDir: dir, journal: false }, async () => {
    for (let i = 0; i < turns; i++) {
      const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [...messages] })
      const toolCall = completion.choices[0]!.message.tool_calls![0]!
      const output = `page ${i}: ${'lorem '.repeat(outputChars / 6)}`
      messages.push(completion.choices[0]!.message as OpenAI.ChatCompletionMessageParam, { role: 'tool', tool_call_id: toolCall.id, content: output })
    }
  })
  // Distinct content: every message once, and every tool call's arguments and result once (a result is what its tool message says).
  for (const message of messages) distinct.add(JSON.stringify(message))
  const fileBytes = statSync(join(dir, 'bench-conversation.trace.json')).size
  let distinctBytes = 0
  for (const text of distinct) distinctBytes += Buffer.byteLength(text)
  distinctBytes += turns * outputChars
  return { fileBytes, distinctBytes }
}

export const suite: BenchSuite = {
  name: 'durable',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'reagent-bench-durable-'))
    try {
      const rows: Row[] = []
      const journalSuite = `Durable recording: a ${TURNS.toLocaleString('en')}-turn session that yields every 1,000 turns`
      const cpu = await compareCpu(journalled(dir, true), journalled(dir, false), { runs: 9, warmup: 2 })
      rows.push({
        suite: journalSuite,
        name: 'CPU time with the journal (appended as it records)',
        value: cpu.ours,
        unit: 'ms',
        baseline: cpu.baseline,
        baselineName: 'the same session with journal: false',
        // Issue 24's target.
        target: { max: 1.15, of: 'ratio' },
      })
      const floorPath = join(dir, 'floor.json')
      const whole = await compareAsync(
        () => session('bench-whole', { traceDir: dir }, (s) => recordTurns(s)),
        () => writeFileSync(floorPath, JSON.stringify(pushTraceShaped(), null, 2)),
        { runs: 15 },
      )
      rows.push({
        suite: journalSuite,
        name: 'session(): record, close and write 10k turns (no yields)',
        value: whole.ours.medianMs,
        unit: 'ms',
        baseline: whole.baseline.medianMs,
        baselineName: 'building the turns by hand + JSON.stringify + writeFileSync',
        // Issue 24's target, with the defaults (journal and redaction on).
        target: { max: 1.3, of: 'ratio' },
      })

      const small = writePerTurn(10_000, dir)
      const written = join(dir, 'bench-write.trace.json')
      const validationPerTurn = validationMs(readFileSync(written, 'utf8')) / 10_000
      const large = writePerTurn(1_000_000, dir)
      const largeLoad = loadAtScale(written)
      const scaleSuite = 'Writing and reading at scale (saveTrace, loadTrace, each in a child process)'
      rows.push(
        {
          suite: scaleSuite,
          name: 'write time per turn at 1,000,000 turns',
          value: large.usPerTurn,
          unit: 'µs',
          baseline: small.usPerTurn,
          baselineName: 'per turn at 10,000 turns',
          target: { max: 1.5, of: 'ratio' },
        },
        {
          suite: scaleSuite,
          name: 'peak RSS writing 1,000,000 turns',
          value: large.peakRssMb * 1024 * 1024,
          unit: 'bytes',
          baseline: large.heapMb * 1e6,
          baselineName: 'heap holding the trace',
          target: { max: 1.2, of: 'ratio' },
        },
        {
          suite: scaleSuite,
          name: `loadTrace of that 1,000,000-turn file (${(statSync(written).size / 1e6).toFixed(0)} MB, in a child)`,
          value: largeLoad.loadMs,
          unit: 'ms',
          baseline: largeLoad.parseMs + validationPerTurn * 1_000_000,
          baselineName: `JSON.parse of it (${largeLoad.parseMs.toFixed(0)} ms, in 16 MB pieces) + validateTrace at 10,000 turns, per turn (${(validationPerTurn * 1000).toFixed(2)} µs)`,
          target: { max: 1.3, of: 'ratio' },
        },
      )

      const conversation = await adapterConversation(dir, 1_000, 20_000)
      rows.push({
        suite: 'An OpenAI tool loop of 1,000 calls with 20 KB tool outputs, recorded by the adapter',
        name: 'trace file size',
        value: conversation.fileBytes,
        unit: 'bytes',
        baseline: conversation.distinctBytes,
        baselineName: 'its distinct content (each message once, each tool result once)',
        target: { max: 1.5, of: 'ratio' },
      })
      return rows
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
