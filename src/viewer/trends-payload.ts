/**
 * The Trends page's series, from run.stats: one call by agent for pass rate,
 * runs and dollars per bucket, then one by commit for each agent shown, to
 * mark where the commit its runs ran changed. The commit of a bucket is the
 * one most of the agent's runs in it ran (ties: the byte-smallest), so one
 * stray run of an old commit does not draw a mark.
 */
import type { RunStatsResult, RunStatsRow } from '../ledger/output-schemas.js'
import type { StatsBucket } from '../ledger/stats-query.js'
import type { CommitMark, TrendSeries, TrendsPayload } from './ledger-types.js'

/** More lines than this on one chart cannot be told apart: the agents with the most runs are drawn, the others counted. */
export const MAX_TREND_AGENTS = 12

export interface TrendsRequest {
  bucket: StatsBucket
  since: string
}

/** run.stats for the caller, as the service answers it (its errors are the caller's to render). */
export type ReadStats = (input: { by: 'agent' | 'commit'; bucket: StatsBucket; since: string; agent?: string }) => Promise<RunStatsResult>

const epochOf = (iso: string): number => Date.parse(iso) / 1000

function commitMarks(rows: readonly RunStatsRow[]): CommitMark[] {
  const topByBucket = new Map<number, { commit: string; runs: number }>()
  for (const row of rows) {
    const at = epochOf(row.bucket_start)
    const top = topByBucket.get(at)
    if (top === undefined || row.runs > top.runs || (row.runs === top.runs && row.key < top.commit)) topByBucket.set(at, { commit: row.key, runs: row.runs })
  }
  const marks: CommitMark[] = []
  let previous: string | undefined
  for (const [at, { commit }] of [...topByBucket].sort((a, b) => a[0] - b[0])) {
    if (previous !== undefined && commit !== previous) marks.push({ at, commit, previous })
    previous = commit
  }
  return marks
}

export async function trendsPayload(request: TrendsRequest, read: ReadStats): Promise<TrendsPayload> {
  const byAgent = await read({ by: 'agent', bucket: request.bucket, since: request.since })
  const rowsOf = new Map<string, RunStatsRow[]>()
  for (const row of byAgent.rows) {
    const rows = rowsOf.get(row.key) ?? []
    rows.push(row)
    rowsOf.set(row.key, rows)
  }
  const runsOf = (agent: string): number => rowsOf.get(agent)!.reduce((sum, row) => sum + row.runs, 0)
  const agents = [...rowsOf.keys()]
    .sort((a, b) => runsOf(b) - runsOf(a) || (a < b ? -1 : 1))
    .slice(0, MAX_TREND_AGENTS)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const buckets = [...new Set(agents.flatMap((agent) => rowsOf.get(agent)!.map((row) => epochOf(row.bucket_start))))].sort((a, b) => a - b)
  const position = new Map(buckets.map((at, i) => [at, i]))
  const series = await Promise.all(
    agents.map(async (agent): Promise<TrendSeries> => {
      const line: TrendSeries = {
        agent,
        runs: buckets.map(() => 0),
        pass_rate: buckets.map(() => null),
        cost_usd: buckets.map(() => null),
        unpriced_turns: 0,
        commits: [],
      }
      for (const row of rowsOf.get(agent)!) {
        const i = position.get(epochOf(row.bucket_start))!
        line.runs[i] = row.runs
        line.pass_rate[i] = row.pass_rate
        line.cost_usd[i] = row.cost_usd
        line.unpriced_turns += row.unpriced_turns
      }
      line.commits = commitMarks((await read({ by: 'commit', bucket: request.bucket, since: request.since, agent })).rows)
      return line
    }),
  )
  return { bucket: byAgent.bucket, since: byAgent.since, buckets, series, more_agents: rowsOf.size - agents.length }
}
