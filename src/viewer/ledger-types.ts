/**
 * What the team viewer's server (ledger-routes.ts) hands its page: the
 * ledger's runs a page at a time, one run with its trace, and the Trends
 * page's series. Types only, shared by the server and the browser bundle.
 */
import type { RunListResult } from '../ledger/output-schemas.js'
import type { RunRow } from '../ledger/run-row.js'
import type { StatsBucket } from '../ledger/stats-query.js'
import type { RunPayload } from './types.js'

/** `GET /ledger/api/runs`: run.list's answer as it is (`next_cursor` when the ledger pages by cursor). */
export type LedgerRunsPayload = RunListResult & { next_cursor?: string | null }

/** `GET /ledger/api/run?id=`: the run's row with its priced usage, and its trace drawn as the local viewer draws one (null: no trace.put yet). */
export interface LedgerRunPayload {
  run: RunRow
  cost_usd: number
  unpriced_turns: number
  /** The run page's payload; the summary's id is the run id. */
  view: RunPayload | null
}

/** Where the commit a series ran changed: the bucket of the first run of the new commit. */
export interface CommitMark {
  /** Bucket start, epoch seconds. */
  at: number
  /** The commit most of the series' runs in that bucket ran ('' for runs that name none). */
  commit: string
  /** The one before it. */
  previous: string
}

/** One agent's points, one per bucket of `TrendsPayload.buckets` (null where it ran nothing, or closed no run). */
export interface TrendSeries {
  agent: string
  runs: number[]
  /** Passed over closed runs, 0 to 1. */
  pass_rate: Array<number | null>
  /** Dollars, from the server's price table. */
  cost_usd: Array<number | null>
  unpriced_turns: number
  commits: CommitMark[]
}

/** `GET /ledger/api/trends`: run.stats by agent (and by commit per agent) over one window. */
export interface TrendsPayload {
  bucket: StatsBucket
  /** The window's start, ISO 8601 UTC, as run.stats answered it. */
  since: string
  /** Every bucket start of the window that holds a run, ascending, epoch seconds. */
  buckets: number[]
  /** By agent (byte order); at most MAX_TREND_AGENTS, the agents with the most runs. */
  series: TrendSeries[]
  /** Agents left out (more than MAX_TREND_AGENTS ran). */
  more_agents: number
}
