/**
 * `reagent-flow list` on a directory of 10,000 traces, called in process,
 * against reading and JSON-parsing every file (what a list that reads
 * whole files costs at the least). The page cache is warm for both.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../../src/cli/main.js'
import { compareAsync } from '../lib/measure.js'
import type { Row } from '../lib/report.js'
import { writeTraceDir } from '../lib/trace-dir.js'
import type { BenchSuite } from '../run.js'

const RUNS = 10_000

const sink = { stdout: () => {}, stderr: () => {}, color: false }

async function list(dir: string, ...args: string[]): Promise<void> {
  const code = await main(['list', '--dir', dir, '--json', ...args], sink)
  if (code !== 0) throw new Error(`list exited with ${code}`)
}

function parseEveryFile(dir: string): unknown[] {
  return readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as unknown)
}

export const suite: BenchSuite = {
  name: 'cli-list',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'reagent-bench-list-'))
    try {
      const bytes = writeTraceDir(dir, RUNS)
      const suiteName = `reagent-flow list on ${RUNS.toLocaleString('en')} traces (${(bytes / 1e6).toFixed(0)} MB, ${(bytes / RUNS / 1024).toFixed(0)} KiB each on average)`
      const baselineName = 'readFileSync + JSON.parse of every file'
      const rows: Row[] = []
      const cases: Array<[string, string[]]> = [
        ['list (newest 50)', []],
        ['list --status failed --order-by duration_desc', ['--status', 'failed', '--order-by', 'duration_desc']],
        ['list --q "order 9999" (one match)', ['--q', 'order 9999']],
      ]
      for (const [name, args] of cases) {
        const { ours, baseline } = await compareAsync(
          () => list(dir, ...args),
          () => parseEveryFile(dir),
          { runs: 7, warmup: 1 },
        )
        rows.push({ suite: suiteName, name, value: ours.medianMs, unit: 'ms', baseline: baseline.medianMs, baselineName, target: { max: 0.5, of: 'ratio' } })
      }
      return rows
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
