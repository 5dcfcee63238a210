/**
 * run.stats in SQL, with the meaning stats-query.ts gives it: the group and
 * bucket of each run computed in the query, counts and nearest-rank
 * percentiles (percentile_disc) in one aggregate, and the tokens per model
 * in a second one over the runs' usage, in one statement that reads the
 * window once, so no run leaves the database.
 */
import type { Scope } from '../identity.js'
import { BUCKET_ORIGIN, BUCKET_SECONDS, GROUP_METADATA_KEY, type StatsCell, type StatsQuery } from '../stats-query.js'
import type { UsageSummary } from '../usage-summary.js'

/** The cells of the runs that started in [query.since, until) (without `until`, from query.since on). */
export function statsSql(query: StatsQuery, scope: Scope, until?: number): { text: string; values: unknown[] } {
  const values: unknown[] = [query.org, query.namespace, query.since]
  const where = ['org = $1', 'namespace = $2', 'started_at >= $3']
  if (until !== undefined) {
    values.push(until)
    where.push(`started_at < $${values.length}`)
  }
  const equal = (column: string, value: string | undefined): void => {
    if (value === undefined) return
    values.push(value)
    where.push(`${column} = $${values.length}`)
  }
  equal('agent', query.agent)
  equal('agent', scope.agent)
  equal('session_id', scope.session_id)
  // A metadata value that is not a string groups with the runs that have none, as in JavaScript.
  const key =
    query.by === 'agent'
      ? 'agent'
      : `CASE WHEN jsonb_typeof(metadata->'${GROUP_METADATA_KEY[query.by]}') = 'string' THEN metadata->>'${GROUP_METADATA_KEY[query.by]}' ELSE '' END`
  const size = BUCKET_SECONDS[query.bucket]
  const origin = BUCKET_ORIGIN[query.bucket]
  const runs = `SELECT ${key} AS key, floor((started_at - ${origin}) / ${size}) * ${size} + ${origin} AS bucket, status, grade, duration_ms, usage FROM reagent_ledger_runs WHERE ${where.join(' AND ')}`
  const closed = `status <> 'active'`
  // One statement, one scan: the window's runs once (MATERIALIZED), then the counts and the tokens per model from them.
  return {
    text:
      `WITH runs AS MATERIALIZED (${runs}), ` +
      `cells AS (SELECT key, bucket, count(*)::integer AS runs, count(*) FILTER (WHERE ${closed})::integer AS closed, ` +
      `count(*) FILTER (WHERE ${closed} AND CASE WHEN grade IS NULL THEN status = 'completed' ELSE grade = 'pass' END)::integer AS passed, ` +
      `percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE ${closed}) AS p50, ` +
      `percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE ${closed}) AS p95, ` +
      `coalesce(sum((usage->>'turns')::bigint), 0) AS turns, coalesce(sum((usage->>'unmeasured')::bigint), 0) AS unmeasured FROM runs GROUP BY key, bucket), ` +
      `per_model AS (SELECT runs.key, runs.bucket, m.key AS model, sum((m.value->>'turns')::bigint) AS turns, ` +
      `sum((m.value->>'input')::bigint) AS input, sum((m.value->>'output')::bigint) AS output ` +
      `FROM runs, jsonb_each(runs.usage->'models') m WHERE runs.usage IS NOT NULL GROUP BY runs.key, runs.bucket, m.key), ` +
      `models AS (SELECT key, bucket, jsonb_object_agg(model, jsonb_build_object('turns', turns, 'input', input, 'output', output)) AS models FROM per_model GROUP BY key, bucket) ` +
      'SELECT cells.*, models.models FROM cells LEFT JOIN models ON models.key = cells.key AND models.bucket = cells.bucket',
    values,
  }
}

type Models = UsageSummary['models']

/** A row of statsSql's answer. */
export interface StatsRow {
  key: string
  bucket: number
  runs: number
  closed: number
  passed: number
  p50: string | null
  p95: string | null
  turns: string
  unmeasured: string
  models: Models | null
}

/** The cell of a row of statsSql's answer, or of a cell kept as JSON (numbers as numbers). */
export function cellOf(row: StatsRow): StatsCell {
  return {
    key: row.key,
    bucket: Number(row.bucket),
    runs: row.runs,
    closed: row.closed,
    passed: row.passed,
    duration_p50_ms: row.p50 === null ? null : Number(row.p50),
    duration_p95_ms: row.p95 === null ? null : Number(row.p95),
    // jsonb numbers come as numbers; a model named like an Object.prototype key stays an own key of a null-prototype object.
    usage: { turns: Number(row.turns), models: Object.assign(Object.create(null) as Models, row.models ?? {}), unmeasured: Number(row.unmeasured) },
  }
}
