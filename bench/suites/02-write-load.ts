import { readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadTrace, session } from 'reagent-flow'
import { saveTrace } from 'reagent-flow/files'
import type { BenchSuite } from '../run.js'
import { compare, measureAsync } from '../lib/measure.js'
import { bigTrace, recordTurns, TURNS } from '../lib/workload.js'

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
      ]
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
