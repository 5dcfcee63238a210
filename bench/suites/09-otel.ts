/**
 * OpenTelemetry export and import of a 10,000-turn trace (a tool call and its
 * result per turn, with content): `toOtlp` against `JSON.stringify` of the same
 * trace, and `fromOtlp` (spans planned into turns and recorded through a
 * session) against `JSON.parse` of the OTLP text, measured interleaved.
 */
import { fromOtlp, toOtlp } from 'reagent-flow/otel'
import type { BenchSuite } from '../run.js'
import { compare, compareAsync } from '../lib/measure.js'
import { bigTrace, TURNS } from '../lib/workload.js'

export const suite: BenchSuite = {
  name: 'otel',
  async run() {
    const trace = bigTrace()
    const tree = { trace, children: [] }
    const exported = compare(
      () => toOtlp(tree, { includeContent: true, redact: false }),
      () => JSON.stringify(trace),
      { runs: 9 },
    )
    const text = JSON.stringify(toOtlp(tree, { includeContent: true, redact: false }))
    const imported = await compareAsync(
      () => fromOtlp(JSON.parse(text)),
      () => JSON.parse(text),
      { runs: 9 },
    )
    const suiteName = `OpenTelemetry, a ${TURNS.toLocaleString('en')}-turn trace (${(text.length / 1e6).toFixed(1)} MB of OTLP/JSON with content)`
    return [
      {
        suite: suiteName,
        name: 'toOtlp (20,001 spans, content, redaction off)',
        value: exported.ours.medianMs,
        unit: 'ms',
        baseline: exported.baseline.medianMs,
        baselineName: 'JSON.stringify(trace)',
      },
      {
        suite: suiteName,
        name: 'fromOtlp (parse, plan turns, record)',
        value: imported.ours.medianMs,
        unit: 'ms',
        baseline: imported.baseline.medianMs,
        baselineName: 'JSON.parse(otlp)',
      },
    ]
  },
}
