import { readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadTrace, session } from 'reagent-flow'
import { saveTrace } from 'reagent-flow/files'
import type { BenchSuite } from '../run.js'
import { compare, measureAsync } from '../lib/measure.js'
import { bigTrace, recordTurns, TURNS } from '../lib/workload.js'

/**
 * The Python reagent-flow 0.5 recording and saving the same 10,000 turns
 * (`with session(...)` around `log_llm_call` and `log_tool_result`, then its
 * file written): a constant, measured once (bench/README.md), as the
 * package is not installed with the bench.
 */
const PYTHON_SESSION_MS = 930

export const suite: BenchSuite = {
  name: 'write-load',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'reagent-bench-'))
    try {
      const trace = bigTrace()
      const plainPath = join(dir, 'plain.json')
      const write = compare(
        () => saveTrace(trace, { traceDir: dir }),
        () => writeFileSync(plainPath, JSON.stringify(trace, null, 2)),
      )
      const path = saveTrace(trace, { traceDir: dir })
      const load = compare(
        () => loadTrace(path),
        () => JSON.parse(readFileSync(path, 'utf8')),
      )
      const whole = await measureAsync(() => session('bench-whole', { traceDir: dir }, (s) => recordTurns(s)), { runs: 9 })
      const suiteName = `A ${TURNS.toLocaleString('en')}-turn trace on disk (${(readFileSync(path).length / 1e6).toFixed(1)} MB)`
      return [
        {
          suite: suiteName,
          name: 'saveTrace (redaction scan + atomic write)',
          value: write.ours.medianMs,
          unit: 'ms',
          baseline: write.baseline.medianMs,
          baselineName: 'JSON.stringify + writeFileSync',
          target: { max: 2, of: 'ratio' },
        },
        {
          suite: suiteName,
          name: 'loadTrace (parse + schema validation)',
          value: load.ours.medianMs,
          unit: 'ms',
          baseline: load.baseline.medianMs,
          baselineName: 'JSON.parse(readFileSync)',
          target: { max: 2, of: 'ratio' },
        },
        {
          suite: suiteName,
          name: 'session(): record 10k turns, finalise and write',
          value: whole.medianMs,
          unit: 'ms',
          target: { max: 100, of: 'value' },
        },
        {
          suite: suiteName,
          name: 'session(): record 10k turns, finalise and write, against Python',
          value: whole.medianMs,
          unit: 'ms',
          baseline: PYTHON_SESSION_MS,
          baselineName: 'the Python reagent-flow 0.5 (a constant, measured once)',
          // Issue 24: at least 25x faster, every run.
          target: { max: 1 / 25, of: 'ratio' },
        },
      ]
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
