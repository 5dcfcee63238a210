import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import stringify from 'fast-json-stable-stringify'
import { diffTraces, formatDiff, matchGolden, saveTrace, type Trace } from 'reagent-flow'
import type { BenchSuite } from '../run.js'
import { compare, measure } from '../lib/measure.js'
import { bigTrace, TURNS } from '../lib/workload.js'

/** `trace` with one more turn (a call nobody expected) in the middle. */
function withInsertedTurn(trace: Trace): Trace {
  const copy = structuredClone(trace)
  const at = Math.floor(copy.turns.length / 2)
  const model = copy.turns[at]!
  const inserted = structuredClone(model)
  inserted.llm_call.tool_calls = [{ ...model.llm_call.tool_calls[0]!, name: 'check_policy', arguments: { days: 3 }, call_id: 'inserted' }]
  inserted.tool_results = [{ call_id: 'inserted', result: { eligible: true }, error: null, duration_ms: 0 }]
  copy.turns.splice(at, 0, inserted)
  copy.turns.forEach((turn, index) => (turn.index = index))
  return copy
}

export const suite: BenchSuite = {
  name: 'diff',
  run() {
    const expected = bigTrace()
    const actual = withInsertedTurn(expected)
    const check = diffTraces(expected, actual)
    if (check.changes.length !== 1 || check.changes[0]!.kind !== 'added') {
      throw new Error(`bench diff: expected one added turn, got ${check.changes.length} changes`)
    }
    const diff = compare(
      () => diffTraces(expected, actual),
      () => stringify(expected) === stringify(actual),
    )
    const same = measure(() => diffTraces(expected, structuredClone(expected)), { runs: 9 })
    const format = measure(() => formatDiff(check, { color: false }))
    const traceDir = mkdtempSync(join(tmpdir(), 'reagent-bench-'))
    let golden
    try {
      saveTrace(expected, { traceDir, golden: true })
      golden = measure(() => matchGolden(actual, { traceDir, update: 'none' }), { runs: 9 })
    } finally {
      rmSync(traceDir, { recursive: true, force: true })
    }
    const suiteName = `Diffing two ${TURNS.toLocaleString('en')}-turn traces`
    return [
      {
        suite: suiteName,
        name: 'diffTraces, one inserted turn (strict, aligned)',
        value: diff.ours.medianMs,
        unit: 'ms',
        baseline: diff.baseline.medianMs,
        baselineName: 'fast-json-stable-stringify of both',
      },
      {
        suite: suiteName,
        name: 'diffTraces, one inserted turn: absolute',
        value: diff.ours.medianMs,
        unit: 'ms',
        target: { max: 50, of: 'value' },
      },
      {
        suite: suiteName,
        name: 'diffTraces, identical traces (incl. structuredClone)',
        value: same.medianMs,
        unit: 'ms',
      },
      {
        suite: suiteName,
        name: 'matchGolden: read, validate, normalize both, diff',
        value: golden.medianMs,
        unit: 'ms',
      },
      {
        suite: suiteName,
        name: 'formatDiff of that diff',
        value: format.medianMs,
        unit: 'ms',
      },
    ]
  },
}
