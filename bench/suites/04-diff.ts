import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import stringify from 'fast-json-stable-stringify'
import type { Trace } from 'reagent-flow'
import { saveTrace } from 'reagent-flow/files'
import { matchGolden } from 'reagent-flow/golden'
import { diffTraces, formatDiff } from 'reagent-flow/diff'
import type { BenchSuite } from '../run.js'
import { compare, measure, type Timing } from '../lib/measure.js'
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
  for (const [index, turn] of copy.turns.entries()) turn.index = index
  return copy
}

/** matchGolden() of `actual` against `expected` saved as its golden: read, validate, normalise, diff. */
function measureAgainstGolden(expected: Trace, actual: Trace): Timing {
  const traceDir = mkdtempSync(join(tmpdir(), 'reagent-bench-'))
  try {
    saveTrace(expected, { traceDir, golden: true })
    return measure(() => matchGolden(actual, { traceDir, update: 'none' }), { runs: 9 })
  } finally {
    rmSync(traceDir, { recursive: true, force: true })
  }
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
    // The absolute figure on its own: interleaved with the baseline, which builds
    // hundreds of MB of strings, it also pays for that garbage.
    const alone = measure(() => diffTraces(expected, actual), { runs: 21 })
    const copy = structuredClone(expected)
    const same = measure(() => diffTraces(expected, copy))
    const format = measure(() => formatDiff(check, { color: false }))
    const golden = measureAgainstGolden(expected, actual)
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
        value: alone.medianMs,
        unit: 'ms',
        target: { max: 50, of: 'value' },
      },
      {
        suite: suiteName,
        name: 'diffTraces, equal traces',
        value: same.medianMs,
        unit: 'ms',
      },
      {
        suite: suiteName,
        name: 'matchGolden against it on disk (read, validate, diff)',
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
