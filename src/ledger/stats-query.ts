/**
 * run.stats's meaning, written once for both stores (the directory index in
 * JavaScript here, PostgreSQL in postgres/stats-sql.ts) and held the same by
 * the conformance suite (decision 080):
 *
 * - a run falls in the bucket of its started_at (UTC hour, day, or ISO week
 *   starting on Monday), if it started at or after `since`;
 * - its group is its agent, or its metadata's test_name, git_branch or
 *   git_commit as the session reporter writes them ('' when it has none);
 * - it *passes* when graded pass, or, ungraded, when its status is completed;
 *   the pass rate is passes over closed runs (active runs are not counted);
 * - duration p50 and p95 are nearest-rank percentiles of the closed runs'
 *   duration_ms (the value at rank ceil(p x n)), PostgreSQL's percentile_disc.
 */
import type { Scope } from './identity.js'
import type { RunRecord } from './run-row.js'
import type { UsageSummary } from './usage-summary.js'

export const STATS_GROUPS = ['agent', 'test', 'branch', 'commit'] as const
export type StatsGroupBy = (typeof STATS_GROUPS)[number]
export const STATS_BUCKETS = ['hour', 'day', 'week'] as const
export type StatsBucket = (typeof STATS_BUCKETS)[number]

/** The metadata key each group but `agent` reads (what the session reporter writes). */
export const GROUP_METADATA_KEY = { test: 'test_name', branch: 'git_branch', commit: 'git_commit' } as const

export const BUCKET_SECONDS: Record<StatsBucket, number> = { hour: 3600, day: 86_400, week: 604_800 }
/** 1970-01-05, the first Monday of the epoch: weeks are counted from it, so they start on Mondays (ISO weeks). */
export const BUCKET_ORIGIN: Record<StatsBucket, number> = { hour: 0, day: 0, week: 4 * 86_400 }

export interface StatsQuery {
  org: string
  namespace: string
  by: StatsGroupBy
  bucket: StatsBucket
  /** Epoch seconds: runs that started before are left out. */
  since: number
  agent?: string
}

/** One group in one bucket, as a store counts it (the service prices the usage). */
export interface StatsCell {
  key: string
  /** The bucket's start, epoch seconds. */
  bucket: number
  runs: number
  closed: number
  passed: number
  duration_p50_ms: number | null
  duration_p95_ms: number | null
  usage: UsageSummary
}

export function bucketOf(startedAt: number, bucket: StatsBucket): number {
  const size = BUCKET_SECONDS[bucket]
  const origin = BUCKET_ORIGIN[bucket]
  return Math.floor((startedAt - origin) / size) * size + origin
}

export function groupKeyOf(run: RunRecord, by: StatsGroupBy): string {
  if (by === 'agent') return run.agent
  const value = run.metadata[GROUP_METADATA_KEY[by]]
  return typeof value === 'string' ? value : ''
}

export function passes(run: Pick<RunRecord, 'status' | 'grade'>): boolean {
  return run.grade === null ? run.status === 'completed' : run.grade === 'pass'
}

/** The nearest-rank percentile of ascending `sorted` (percentile_disc); null when empty. */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!
}

/** Orders cells by key (byte order), then bucket. */
export function compareCells(a: StatsCell, b: StatsCell): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : a.bucket - b.bucket
}

/** The cells of `runs` (already in the namespace and the scope), in the order compareCells gives. */
export function statsOf(runs: Iterable<RunRecord>, query: StatsQuery, scope: Scope): StatsCell[] {
  const cells = new Map<string, { cell: StatsCell; durations: number[] }>()
  for (const run of runs) {
    if (run.started_at < query.since) continue
    if (query.agent !== undefined && run.agent !== query.agent) continue
    if ((scope.agent !== undefined && run.agent !== scope.agent) || (scope.session_id !== undefined && run.session_id !== scope.session_id)) continue
    const key = groupKeyOf(run, query.by)
    const bucket = bucketOf(run.started_at, query.bucket)
    const id = `${bucket}\u0000${key}`
    let held = cells.get(id)
    if (held === undefined) {
      const usage: UsageSummary = { turns: 0, models: Object.create(null) as UsageSummary['models'], unmeasured: 0 }
      held = { cell: { key, bucket, runs: 0, closed: 0, passed: 0, duration_p50_ms: null, duration_p95_ms: null, usage }, durations: [] }
      cells.set(id, held)
    }
    const { cell } = held
    cell.runs += 1
    if (run.status !== 'active') {
      cell.closed += 1
      if (passes(run)) cell.passed += 1
      held.durations.push(run.duration_ms)
    }
    if (run.usage !== null) addUsage(cell.usage, run.usage)
  }
  const out: StatsCell[] = []
  for (const { cell, durations } of cells.values()) {
    durations.sort((a, b) => a - b)
    out.push({ ...cell, duration_p50_ms: nearestRank(durations, 0.5), duration_p95_ms: nearestRank(durations, 0.95) })
  }
  return out.sort(compareCells)
}

function addUsage(into: UsageSummary, usage: UsageSummary): void {
  into.turns += usage.turns
  into.unmeasured += usage.unmeasured
  for (const [model, used] of Object.entries(usage.models)) {
    const entry = (into.models[model] ??= { turns: 0, input: 0, output: 0 })
    entry.turns += used.turns
    entry.input += used.input
    entry.output += used.output
  }
}

const SINCE = /^([1-9][0-9]{0,5})([hdw])$/

/** `since` ("30d", "12h", "8w") as epoch seconds before `now`; undefined when it is not one. */
export function sinceOf(since: string, now: number): number | undefined {
  const match = SINCE.exec(since)
  if (match === null) return undefined
  const unit = { h: 3600, d: 86_400, w: 604_800 }[match[2] as 'h' | 'd' | 'w']
  return now - Number(match[1]) * unit
}
