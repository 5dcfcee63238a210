/**
 * Atomic writes of one file name by many writers at once: 6 processes, each
 * with 8 worker threads, write traces of one name while this process reads
 * the file as fast as it can. No reader ever sees a partial or empty file,
 * no write fails, and no temporary file is left behind.
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { tempDir } from '../helpers/temp-dir.js'

const STORAGE = fileURLToPath(new URL('../../dist/src/entries/files.js', import.meta.url))

/** A process whose 8 worker threads each write `writes` traces named "shared", every one a different size. */
function writerProcess(dir: string, id: number, writes: number): Promise<{ code: number | null; output: string }> {
  const script = `
    import { Worker, isMainThread, threadId } from 'node:worker_threads'
    import { saveTrace } from ${JSON.stringify(STORAGE)}
    if (isMainThread) {
      const workers = Array.from({ length: 8 }, () => new Worker(new URL(import.meta.url)))
      const codes = await Promise.all(workers.map((w) => new Promise((resolve) => w.on('exit', resolve))))
      process.exit(codes.every((code) => code === 0) ? 0 : 1)
    } else {
      for (let i = 0; i < ${writes}; i++) {
        const turns = Array.from({ length: 50 + ((threadId * 7 + i) % 40) }, (_, n) => ({
          index: n, llm_call: { messages: null, response_text: 'x'.repeat(200), tool_calls: [], model: null, token_usage: null, timestamp: 1.5 },
          tool_results: [], duration_ms: 0,
        }))
        saveTrace({ trace_id: 'p${id}-t' + threadId + '-' + i, name: 'shared', turns, metadata: {}, started_at: 1.5, ended_at: 2.5,
          format_version: '1', parent_trace_id: null, handoff_context: null }, { traceDir: ${JSON.stringify(dir)}, redact: false })
      }
    }
  `
  // A module file, so the workers can load it again by its URL.
  const file = join(dir, `writer-${id}.mjs`)
  return import('node:fs').then(({ writeFileSync }) => {
    writeFileSync(file, script)
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })))
  })
}

it('48 writers in 6 processes and 8 threads each never leave a reader a partial or empty file, nor a temporary file', async () => {
  const dir = tempDir()
  const path = join(dir, 'shared.trace.json')
  const writers = Promise.all(Array.from({ length: 6 }, (_, id) => writerProcess(dir, id, 15)))
  let done = false
  void writers.then(() => (done = true))
  let reads = 0
  const seen = new Set<string>()
  while (!done) {
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOENT')
      await new Promise((resolve) => setImmediate(resolve))
      continue
    }
    const trace = JSON.parse(text) as { trace_id: string; turns: unknown[] }
    expect(trace.turns.length).toBeGreaterThanOrEqual(50)
    seen.add(trace.trace_id)
    reads += 1
    await new Promise((resolve) => setImmediate(resolve))
  }
  const results = await writers
  expect(results.map((r) => [r.code, r.output])).toEqual(results.map(() => [0, '']))
  expect(reads).toBeGreaterThan(10)
  expect(seen.size).toBeGreaterThan(1)
  expect(readdirSync(dir).sort()).toEqual(['shared.trace.json', ...Array.from({ length: 6 }, (_, id) => `writer-${id}.mjs`)].sort())
}, 120_000)
