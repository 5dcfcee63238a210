/**
 * The operations' inputs as TypeScript types, for the client: the fields of
 * input-schemas.ts, optional where the server has a default or fills them
 * (org and namespace come from the token, or the single-user server).
 */
import type { JsonObject } from '../trace/types.js'
import type { LIST_ORDERS } from './input-schemas.js'
import type { RunRowField, RunStatus, Verdict } from './run-row.js'

interface Identity {
  org?: string
  namespace?: string
}

export interface RunBeginInput extends Identity {
  /** The agent; a token narrowed to an agent fills it. */
  agent?: string
  goal: string
  /** Default '-' (none). */
  user_id?: string
  /** Default '-' (none); needed for a budget_usd. */
  session_id?: string
  /** Default: the server mints a ULID. */
  run_id?: string
  user_request?: string
  expected_outcome?: string
  environment?: string
  model?: string
  consumer?: string
  role?: string
  metadata?: JsonObject
  budget_usd?: number
  budget_seconds?: number
  /** Names this call: sent again with the same key, it is answered as the first time and writes nothing again (kept a day). */
  idempotency_key?: string
}

export interface RunCompleteInput extends Identity {
  run_id: string
  status: Exclude<RunStatus, 'active'>
  user_id?: string
  session_id?: string
  final_response?: string
  confidence?: number
  memories_used?: string[]
  recalled_keys?: string[]
  outcome?: '' | 'positive' | 'negative' | 'none'
  weight?: number
  /** Default 0: computed from started_at. */
  duration_ms?: number
  metadata?: JsonObject
  reflection?: JsonObject | null
  retain?: '' | 'keep' | 'demote' | 'expire'
  /** Names this call: sent again with the same key, it is answered as the first time and writes nothing again (kept a day). */
  idempotency_key?: string
}

export interface RunGetInput extends Identity {
  run_id: string
}

export interface RunGradeInput extends Identity {
  run_id?: string
  session_id?: string
  grade: Verdict
  /** Default 'caller'. */
  source?: string
  reason?: string
  ref?: string
}

export interface RunListInput extends Identity {
  agent?: string
  session_id?: string
  status?: '' | RunStatus
  /** Default 50, at most 200. */
  limit?: number
  /** 0 to 100,000; reads every run it skips (a cursor does not). */
  offset?: number
  /** The `next_cursor` of the page before (same `order_by`): the page after it. Not with `offset`. */
  cursor?: string
  order_by?: (typeof LIST_ORDERS)[number]
  q?: string
  memory_activity?: '' | 'with' | 'without'
  grade?: '' | 'ungraded' | 'graded' | Verdict
  fields?: RunRowField[] | null
}

export interface TracePutInput extends Identity {
  run_id: string
}

export interface TraceGetInput extends Identity {
  run_id: string
}

/** results.put's fields besides the results: org and namespace, which a token fills. */
export type ResultsPutInput = Identity

export interface ResultsListInput extends Identity {
  /** Only this git branch's results; default '' (every branch). */
  branch?: string
  /** Default 20, at most 200. */
  limit?: number
}

export interface RunStatsInput extends Identity {
  /** Default 'agent'. */
  by?: 'agent' | 'test' | 'branch' | 'commit'
  /** Default 'day'. */
  bucket?: 'hour' | 'day' | 'week'
  /** Hours, days or weeks before now: '12h', '30d' (the default), '8w'. */
  since?: string
  /** Only this agent's runs; default '' (every agent). */
  agent?: string
}

export interface RunPruneInput extends Identity {
  /** Runs started more than this long ago are removed: '36h', '90d', '12w'. */
  older_than: string
  /** Keep runs that ended failed or were graded fail. Default false. */
  keep_failed?: boolean
  /** Keep the newest this many runs of each agent, whatever their age. Default 1 (at least 1). */
  keep_last?: number
  /** Count only. Default false. */
  dry_run?: boolean
}
