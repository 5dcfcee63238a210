/**
 * Load for the ledger's figures: servers in processes of their own (the
 * built `reagent-flow serve`, and the bare framework route), clients in this
 * one, over loopback with keep-alive connections, as a team's CI machines
 * would call it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'

export interface ServerProcess {
  url: string
  stop(): Promise<void>
}

const ROOT = join(import.meta.dirname, '../..')

function startProcess(args: readonly string[], urlPattern: RegExp): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    // The request log: one line per request; keep only the tail for error messages.
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const url = urlPattern.exec(stdout)?.[1]
      if (url !== undefined) {
        resolve({
          url,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done())
              child.kill('SIGTERM')
            }),
        })
      }
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr}`)))
  })
}

/** `reagent-flow serve --port 0 --store <store>` (the built CLI). */
export function startLedgerProcess(store: string): Promise<ServerProcess> {
  return startProcess([join(ROOT, 'dist/src/cli/index.js'), 'serve', '--port', '0', '--store', store], /the run ledger on (http:\/\/\S+)\/v1 /)
}

/** The same framework with one route answering `{}`. */
export function startBareProcess(): Promise<ServerProcess> {
  return startProcess(['--import', 'tsx', join(ROOT, 'bench/lib/bare-server.ts')], /listening on (http:\/\/\S+)/)
}

export async function post(url: string, operation: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${url}/v1/${operation}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!response.ok) throw new Error(`${operation} answered ${response.status}: ${await response.text()}`)
  return response.json()
}

/** How many times `task` completed per second with `clients` running it back to back for `seconds` (after a warm-up). */
export async function throughput(task: (client: number) => Promise<void>, { clients = 32, seconds = 3, warmupSeconds = 1 } = {}): Promise<number> {
  const run = async (forSeconds: number): Promise<number> => {
    const until = performance.now() + forSeconds * 1000
    let done = 0
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        while (performance.now() < until) {
          await task(client)
          done += 1
        }
      }),
    )
    return done
  }
  await run(warmupSeconds)
  const started = performance.now()
  const done = await run(seconds)
  return done / ((performance.now() - started) / 1000)
}

/** Latencies (ms) of `calls` calls of `task`, one at a time, after `warmup` untimed ones; returns the p50 and p99. */
export async function latencies(task: (i: number) => Promise<void>, calls: number, warmup = 20): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < warmup; i++) await task(i)
  const times: number[] = []
  for (let i = 0; i < calls; i++) {
    const started = performance.now()
    await task(i)
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const at = (q: number): number => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!
  return { p50: at(0.5), p99: at(0.99) }
}

/**
 * Latencies (ms) of `task` with `clients` running it back to back: `calls` calls in all, or fewer when
 * `maxSeconds` pass first (every client makes at least one); returns the p50, the p99, how many were
 * timed and how many failed (a failed call is timed too: a 503 after a wait is a slow answer).
 */
export async function concurrentLatencies(
  task: (i: number) => Promise<void>,
  { clients = 32, calls = 320, maxSeconds = 20 }: { clients?: number; calls?: number; maxSeconds?: number } = {},
): Promise<{ p50: number; p99: number; calls: number; failed: number; failure?: string }> {
  const times: number[] = []
  let failed = 0
  let failure: string | undefined
  const until = performance.now() + maxSeconds * 1000
  let issued = 0
  await Promise.all(
    Array.from({ length: clients }, async () => {
      let mine = 0
      while (issued < calls && (mine === 0 || performance.now() < until)) {
        const i = issued++
        mine += 1
        const started = performance.now()
        try {
          await task(i)
        } catch (error) {
          failed += 1
          failure ??= error instanceof Error ? error.message : String(error)
        }
        times.push(performance.now() - started)
      }
    }),
  )
  times.sort((a, b) => a - b)
  const at = (q: number): number => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!
  return { p50: at(0.5), p99: at(0.99), calls: times.length, failed, ...(failure === undefined ? {} : { failure }) }
}
