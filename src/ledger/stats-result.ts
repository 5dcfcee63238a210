/** run.stats between the call and the store: the query a checked input asks for, and a store's cell as the row the operation answers (priced with the server's table). */
import type { ModelCost } from '../trace/cost.js'
import type { CheckedInputs } from './checked-input.js'
import { isAny } from './identity.js'
import type { RunStatsRow } from './output-schemas.js'
import { isoTimeOf } from './run-row.js'
import { sinceOf, type StatsCell, type StatsQuery } from './stats-query.js'
import { priceUsage } from './usage-summary.js'

/** The query of `input` at `now`: `since` is already checked by the schema's pattern, so it always reads. */
export function statsQueryOf(input: CheckedInputs['run.stats'], now: number): StatsQuery {
  const query: StatsQuery = { org: input.org, namespace: input.namespace, by: input.by, bucket: input.bucket, since: sinceOf(input.since, now) ?? now }
  if (!isAny(input.agent)) query.agent = input.agent
  return query
}

export function statsRowOf(cell: StatsCell, prices: ReadonlyMap<string, ModelCost>): RunStatsRow {
  const priced = priceUsage(cell.usage, prices)
  let input = 0
  let output = 0
  for (const used of Object.values(cell.usage.models)) {
    input += used.input
    output += used.output
  }
  return {
    key: cell.key,
    bucket_start: isoTimeOf(cell.bucket),
    runs: cell.runs,
    closed: cell.closed,
    passed: cell.passed,
    pass_rate: cell.closed === 0 ? null : cell.passed / cell.closed,
    turns: cell.usage.turns,
    input_tokens: input,
    output_tokens: output,
    cost_usd: priced.cost_usd,
    unpriced_turns: priced.unpriced_turns,
    duration_p50_ms: cell.duration_p50_ms,
    duration_p95_ms: cell.duration_p95_ms,
  }
}
