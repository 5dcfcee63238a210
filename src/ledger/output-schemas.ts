/**
 * What each operation returns, in JSON Schema (the MCP tools publish them as
 * output schemas), and the same as TypeScript types for the client. Memory
 * fields are answered as a Loom server with an empty memory store answers
 * them: zeros, empty lists, and -1 for `recalled` where the specification
 * says the search trace log is off.
 */
import type { RunResults } from '../results/types.js'
import type { Trace } from '../trace/types.js'
import type { RunRow, RunStatus } from './run-row.js'
import { RUN_ROW_SCHEMA } from './run-row.js'

const int = { type: 'integer' } as const
const num = { type: 'number' } as const
const str = { type: 'string' } as const
const strings = { type: 'array', items: str } as const
const ignored = { type: 'array', items: str, description: 'Input fields the operation does not know; they were ignored.' } as const

const output = <P extends Record<string, object>>(title: string, properties: P) =>
  ({ title, type: 'object', properties: { ...properties, ignored_args: ignored }, required: Object.keys(properties) }) as const

export const RUN_BEGIN_OUTPUT = output('run.begin result', {
  run_id: str,
  status: { enum: ['active', 'completed', 'failed', 'cancelled'] },
  started_at: str,
  next: str,
})

export const RUN_COMPLETE_OUTPUT = output('run.complete result', {
  run_id: str,
  status: { enum: ['completed', 'failed', 'cancelled'] },
  duration_ms: int,
  used_applied: int,
  evidence_applied: int,
  harm_applied: int,
  memories_written: strings,
  recalled: int,
  observations: int,
  procedure_runs_recorded: int,
  reflection_key: str,
  retain: str,
  retained: int,
  demoted: int,
  expiring: int,
})

const { $id: _id, title: _title, ...rowSchema } = RUN_ROW_SCHEMA
const runRow = { ...rowSchema, required: Object.keys(RUN_ROW_SCHEMA.properties) }

export const RUN_GET_OUTPUT = output('run.get result', {
  found: { type: 'boolean' },
  run: { anyOf: [runRow, { type: 'null' }] },
  recalled: int,
  recalled_keys: strings,
  memories_written: strings,
  observations: int,
  turns: int,
  unpriced_turns: int,
  cost_usd: num,
  elapsed_seconds: int,
  over_budget: { type: 'array', items: { enum: ['cost', 'time'] } },
})

export const RUN_GRADE_OUTPUT = output('run.grade result', {
  graded: int,
  run_ids: strings,
  skipped_active: int,
  unchanged: int,
  memories_counted: int,
  proposals_decided: { type: 'array', items: { type: 'object' } },
})

export const RUN_LIST_OUTPUT = output('run.list result', {
  // Rows are projected to `fields` when given, so no field is required of an item.
  runs: { type: 'array', items: { type: 'object', properties: RUN_ROW_SCHEMA.properties } },
  total: { type: ['integer', 'null'] },
  next_cursor: { type: ['string', 'null'] },
})

export const TRACE_PUT_OUTPUT = output('trace.put result', { run_id: str, turns: int, bytes: int, stored_bytes: int })

export const TRACE_GET_OUTPUT = output('trace.get result', { run_id: str, trace: { type: ['object', 'null'] } })

export const RESULTS_PUT_OUTPUT = output('results.put result', { results_id: str, stored: { type: 'boolean' } })

export const RESULTS_LIST_OUTPUT = output('results.list result', { results: { type: 'array', items: { type: 'object' } } })

const intOrNull = { type: ['integer', 'null'] } as const

export const RUN_STATS_OUTPUT = output('run.stats result', {
  by: { enum: ['agent', 'test', 'branch', 'commit'] },
  bucket: { enum: ['hour', 'day', 'week'] },
  since: str,
  rows: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        key: str,
        bucket_start: str,
        runs: int,
        closed: int,
        passed: int,
        pass_rate: { type: ['number', 'null'] },
        turns: int,
        input_tokens: int,
        output_tokens: int,
        cost_usd: num,
        unpriced_turns: int,
        duration_p50_ms: intOrNull,
        duration_p95_ms: intOrNull,
      },
    },
  },
})

export const RUN_PRUNE_OUTPUT = output('run.prune result', {
  before: str,
  dry_run: { type: 'boolean' },
  removed: int,
  kept: { type: 'object', properties: { active: int, last: int, baseline: int, failed: int } },
  partitions_dropped: int,
})

export const OPERATION_OUTPUTS = {
  'run.begin': RUN_BEGIN_OUTPUT,
  'run.complete': RUN_COMPLETE_OUTPUT,
  'run.get': RUN_GET_OUTPUT,
  'run.grade': RUN_GRADE_OUTPUT,
  'run.list': RUN_LIST_OUTPUT,
  'trace.put': TRACE_PUT_OUTPUT,
  'trace.get': TRACE_GET_OUTPUT,
  'results.put': RESULTS_PUT_OUTPUT,
  'results.list': RESULTS_LIST_OUTPUT,
  'run.stats': RUN_STATS_OUTPUT,
  'run.prune': RUN_PRUNE_OUTPUT,
} as const

interface Ignored {
  /** Present when the call carried fields the operation does not know. */
  ignored_args?: string[]
}

export interface RunBeginResult extends Ignored {
  run_id: string
  status: RunStatus
  started_at: string
  next: string
}

export interface RunCompleteResult extends Ignored {
  run_id: string
  status: Exclude<RunStatus, 'active'>
  duration_ms: number
  used_applied: number
  evidence_applied: number
  harm_applied: number
  memories_written: string[]
  recalled: number
  observations: number
  procedure_runs_recorded: number
  reflection_key: string
  retain: string
  retained: number
  demoted: number
  expiring: number
}

export interface RunGetResult extends Ignored {
  found: boolean
  run: RunRow | null
  recalled: number
  recalled_keys: string[]
  memories_written: string[]
  observations: number
  turns: number
  unpriced_turns: number
  cost_usd: number
  elapsed_seconds: number
  over_budget: Array<'cost' | 'time'>
}

export interface RunGradeResult extends Ignored {
  graded: number
  run_ids: string[]
  skipped_active: number
  unchanged: number
  memories_counted: number
  proposals_decided: object[]
}

export interface RunListResult extends Ignored {
  runs: Array<Partial<RunRow>>
  total: number | null
  /** Pass as `cursor` for the page after this one (same order_by); null on the last page. */
  next_cursor: string | null
}

export interface TracePutResult extends Ignored {
  run_id: string
  turns: number
  /** The size of the trace as stored (redacted JSON text). */
  bytes: number
  /** The bytes the ledger keeps for it: gzip-compressed on PostgreSQL, the run's trace file on the directory store. */
  stored_bytes: number
}

export interface TraceGetResult extends Ignored {
  run_id: string
  /** The run's trace; null when the run has none (it never sent one with trace.put). */
  trace: Trace | null
}

export interface ResultsPutResult extends Ignored {
  /** The results' key in the namespace: the SHA-256 of their JSON text. */
  results_id: string
  /** False when the namespace already held these results (nothing changed). */
  stored: boolean
}

export interface ResultsListResult extends Ignored {
  /** The results files, newest first by started_at. */
  results: RunResults[]
}

/** One group (agent, test, branch or commit) in one time bucket. */
export interface RunStatsRow {
  /** The agent, test name, branch or commit; '' for runs without one. */
  key: string
  /** The bucket's start, ISO 8601 UTC. */
  bucket_start: string
  runs: number
  /** Runs that ended (completed, failed or cancelled). */
  closed: number
  /** Closed runs graded pass, or ungraded and completed. */
  passed: number
  /** passed / closed; null when no run closed. */
  pass_rate: number | null
  turns: number
  input_tokens: number
  output_tokens: number
  cost_usd: number
  unpriced_turns: number
  /** Nearest-rank percentiles of the closed runs' duration_ms; null when no run closed. */
  duration_p50_ms: number | null
  duration_p95_ms: number | null
}

export interface RunStatsResult extends Ignored {
  by: 'agent' | 'test' | 'branch' | 'commit'
  bucket: 'hour' | 'day' | 'week'
  /** The start of the window, ISO 8601 UTC. */
  since: string
  /** By key (byte order), then bucket, oldest first. */
  rows: RunStatsRow[]
}

export interface RunPruneResult extends Ignored {
  /** The cut-off: runs that started before it were candidates, ISO 8601 UTC. */
  before: string
  dry_run: boolean
  /** Runs removed (with dry_run: that would be). */
  removed: number
  /** Candidates kept, by the first rule that kept each: still active, among their agent's newest, in a branch's latest results, failed (keep_failed). */
  kept: { active: number; last: number; baseline: number; failed: number }
  /** PostgreSQL: whole monthly partitions dropped; 0 on a directory store. */
  partitions_dropped: number
}
