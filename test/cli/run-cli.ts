/**
 * Runs the built `reagent-flow` command as a child process (as `npx
 * reagent-flow` does after install) over trace directories generated here.
 */
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Trace } from '../../src/entries/index.js'
import { saveTrace } from '../../src/entries/files.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'

export const CLI = join(import.meta.dirname, '../../dist/src/cli/index.js')
const PYTHON_FIXTURES = join(import.meta.dirname, '../../fixtures/reagent-flow-py-0.5')

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `reagent-flow ...args` in `cwd` with colour off (NO_COLOR=1). */
export function runCli(args: readonly string[], cwd: string, env: Record<string, string> = {}): CliResult {
  const { FORCE_COLOR: _force, ...inherited } = process.env
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...inherited, NO_COLOR: '1', ...env } })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** `runCli` without blocking this process: for a command that talks to a server the test runs (a local HTTP server standing in for an API). */
export function runCliAsync(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  const { FORCE_COLOR: _force, ...inherited } = process.env
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...inherited, NO_COLOR: '1', ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Runs a command with `--json` and parses what it printed. */
export function runJson<T = Record<string, unknown>>(args: readonly string[], cwd: string): { code: number | null; json: T; stderr: string } {
  const result = runCli([...args, '--json'], cwd)
  return { code: result.code, json: JSON.parse(result.stdout) as T, stderr: result.stderr }
}

/** Epoch seconds of the sample runs: 2027-01-15 08:00:00 UTC. */
export const T0 = 1_800_000_000

/** Three runs of a small multi-agent system, with fixed ids and times. */
export function sampleRuns(): Trace[] {
  const refund = buildTrace(
    'refund-agent',
    [
      {
        calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { amount: 19.99 }, ms: 2 }],
        tokens: { input_tokens: 900, output_tokens: 40 },
        ms: 310,
      },
      { calls: [{ name: 'issue_refund', args: { order_id: '42' }, result: { ok: true }, ms: 4 }], tokens: { input_tokens: 1000, output_tokens: 30 }, ms: 420 },
      { text: 'Refunded $19.99 for order 42.', tokens: { input_tokens: 1100, output_tokens: 20 }, ms: 280 },
    ],
    { metadata: { goal: 'Refund order 42', budget_usd: 0.01, budget_seconds: 30 }, started_at: T0, ended_at: T0 + 1.5 },
  )
  const billing = buildTrace(
    'billing-agent',
    [
      { calls: [{ name: 'charge_back', args: { order_id: '42' }, result: 'done', ms: 30 }], tokens: { input_tokens: 300, output_tokens: 10 }, ms: 40 },
      { text: 'Charged back.' },
    ],
    { parent_trace_id: 'trace-refund-agent', handoff_context: { order_id: '42', reason: 'damaged' }, started_at: T0 + 0.5, ended_at: T0 + 0.75 },
  )
  const search = buildTrace(
    'search-agent',
    [{ calls: [{ name: 'search', args: { q: 'refund policy' }, error: 'TimeoutError: no answer in 30s', ms: 30_000 }], model: 'gpt-4o-mini' }],
    {
      metadata: { goal: 'Find the refund policy' },
      status: 'failed',
      error: { name: 'TimeoutError', message: 'no answer in 30s' },
      started_at: T0 + 60,
      ended_at: T0 + 90.25,
    },
  )
  return [refund, billing, search]
}

/** A temporary trace directory holding `traces` as the recorder writes them. */
export function traceDirWith(traces: readonly Trace[], { python = false } = {}): string {
  const dir = tempDir('reagent-cli-')
  mkdirSync(join(dir, '.reagent'))
  for (const trace of traces) saveTrace(trace, { traceDir: join(dir, '.reagent') })
  if (python) {
    for (const file of readdirSync(PYTHON_FIXTURES).filter((name) => name.endsWith('.trace.json'))) {
      copyFileSync(join(PYTHON_FIXTURES, file), join(dir, '.reagent', file))
    }
  }
  return dir
}
