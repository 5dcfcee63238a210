/**
 * Runs as files of a trace directory.
 *
 * A trace session() wrote (`<dir>/<name>.trace.json`) is a run of the
 * server's own org and namespace: run_id is its trace_id, agent its name,
 * goal `metadata.goal` (else the name), budgets `metadata.budget_usd` and
 * `budget_seconds`. Our recorder's five statuses map onto the
 * specification's four: `interrupted` is reported as `failed`, with
 * `metadata.interruption_reason`. A run recorded in a vitest test has its
 * `test_file` and `test_name` in its metadata, as a reporting session sends them.
 *
 * A run of the ledger (begun over HTTP, or given a trace with trace.put) is
 * a trace file of its own, `<dir>/ledger/<org>/<namespace>/<run_id>.trace.json`:
 * its trace (an empty one until trace.put) with the run row under the extra
 * top-level key `ledger`, which trace format "1" allows. Any trace reader
 * (`reagent-flow list --dir <that folder>`, reagent-flow 0.5) reads it.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { TRACE_FILE_SUFFIX } from '../../storage/index.js'
import { durationMs } from '../../trace/facts.js'
import type { TraceFields } from '../../trace/top-level.js'
import type { JsonObject, Trace } from '../../trace/types.js'
import { blankRun, RUN_STATUSES, type RunStatus } from '../run-fields.js'
import type { RunRecord } from '../run-row.js'

export const LEDGER_FOLDER = 'ledger'
const LEDGER_KEY = 'ledger'

/** Our recorder's statuses (active, completed, failed, cancelled, interrupted) as the ledger's; files of reagent-flow 0.5 have none: completed. */
function ledgerStatusOf(status: unknown): RunStatus {
  if (status === undefined || status === null) return 'completed'
  return (RUN_STATUSES as readonly unknown[]).includes(status) ? (status as RunStatus) : 'failed'
}

const amount = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0)
const text = (value: unknown): string => (typeof value === 'string' ? value : '')

/** A trace session() wrote, as a run of `identity`: the fields a trace holds, every other one blank (run-fields.ts). */
export function recordedRun(fields: TraceFields, identity: { org: string; namespace: string }): RunRecord {
  const raw = fields as TraceFields & Record<string, unknown>
  const status = ledgerStatusOf(raw.status)
  const metadata: JsonObject = { ...fields.metadata }
  if (typeof raw.interruption_reason === 'string') metadata.interruption_reason = raw.interruption_reason
  // Where the run came from, as a session reporting to a ledger sends it (its own metadata wins a clash).
  for (const key of ['test_file', 'test_name'] as const) {
    if (typeof raw[key] === 'string' && !(key in metadata)) metadata[key] = raw[key]
  }
  const closed = status !== 'active' && fields.ended_at !== null
  const grade = fields.grade
  return {
    ...blankRun(),
    org: identity.org,
    namespace: identity.namespace,
    run_id: fields.trace_id,
    agent: fields.name,
    user_id: fields.user_id ?? '-',
    session_id: fields.session_id ?? '-',
    goal: text(fields.metadata.goal) || fields.name,
    status,
    started_at: fields.started_at,
    completed_at: closed ? fields.ended_at : null,
    duration_ms: closed ? Math.round(durationMs(fields) ?? 0) : 0,
    grade: grade?.grade ?? null,
    grade_source: grade?.source ?? null,
    grade_reason: grade === undefined ? null : (grade.reason ?? ''),
    grade_ref: grade === undefined ? null : (grade.ref ?? ''),
    graded_at: grade?.graded_at ?? null,
    metadata,
    budget_usd: amount(fields.metadata.budget_usd),
    budget_seconds: Math.floor(amount(fields.metadata.budget_seconds)),
  }
}

/** The run row a ledger file holds under `ledger`, or undefined when it holds none (or not one of ours). */
export function ledgerRunOf(fields: TraceFields): RunRecord | undefined {
  const row = (fields as TraceFields & Record<string, unknown>)[LEDGER_KEY]
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return undefined
  const run = row as RunRecord
  const ok = typeof run.run_id === 'string' && typeof run.org === 'string' && typeof run.namespace === 'string' && typeof run.started_at === 'number'
  return ok && (RUN_STATUSES as readonly string[]).includes(run.status) ? run : undefined
}

/**
 * The file of a ledger run: `trace` (the run's uploaded trace, or an empty
 * one) with its status, end, ids and grade taken from the run, and the run
 * under `ledger`. Keys in the order trace files have, so `list` reads them
 * from their ends.
 */
export function ledgerFileOf(run: RunRecord, trace: Trace | undefined): Trace {
  const base = trace ?? {
    trace_id: run.run_id,
    name: run.agent,
    turns: [],
    metadata: run.metadata,
    started_at: run.started_at,
    ended_at: null,
    format_version: '1' as const,
    parent_trace_id: null,
    handoff_context: null,
  }
  const { [LEDGER_KEY]: _old, grade: _grade, ...rest } = base
  const file: Trace = {
    ...rest,
    ended_at: run.completed_at ?? (run.status === 'active' ? null : base.ended_at),
    status: run.status as NonNullable<Trace['status']>,
    session_id: run.session_id === '-' ? null : run.session_id,
    user_id: run.user_id === '-' ? null : run.user_id,
  }
  if (run.grade !== null) {
    file.grade = { grade: run.grade, source: run.grade_source ?? '', reason: run.grade_reason, ref: run.grade_ref, graded_at: run.graded_at ?? run.started_at }
  }
  file[LEDGER_KEY] = run
  return file
}

/** The first character of a hashed segment: `+` is %-encoded in every direct one, so no id's segment is another id's hash. */
const HASHED = '+h-'

/**
 * A name as one path segment, one-to-one: letters, digits, `-` and `_` as
 * they are, every other UTF-8 byte %-encoded; a name too long for a file
 * name becomes `+h-` and the SHA-256 of its UTF-8 bytes. Names are
 * well-formed Unicode (input-values.ts refuses lone surrogates, which have
 * no UTF-8 form and would all encode as U+FFFD).
 */
function segment(name: string): string {
  const safe = Array.from(Buffer.from(name, 'utf8'), (byte) =>
    /[A-Za-z0-9_-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('')
  return safe.length <= 180 ? safe : `${HASHED}${createHash('sha256').update(name, 'utf8').digest('hex')}`
}

export function ledgerFolder(dir: string, org: string, namespace: string): string {
  return join(dir, LEDGER_FOLDER, segment(org), segment(namespace))
}

export function ledgerPath(dir: string, run: Pick<RunRecord, 'org' | 'namespace' | 'run_id'>): string {
  return join(ledgerFolder(dir, run.org, run.namespace), `${segment(run.run_id)}${TRACE_FILE_SUFFIX}`)
}
