/**
 * Type test of the run row (`reagent-flow/ledger`'s RunRow) and of the run a
 * store keeps, checked by `npm run typecheck`, never run: both are derived
 * from the one definition of a run's fields (src/ledger/run-fields.ts), and
 * must stay the types they were when they were written out by hand.
 */
import { expectTypeOf } from 'vitest'
import type { RunRecord, RunRow, RunRowField } from '../../src/ledger/run-row.js'
import type { UsageSummary } from '../../src/ledger/usage-summary.js'
import type { JsonObject } from '../../src/trace/types.js'

type RunStatus = 'active' | 'completed' | 'failed' | 'cancelled'

interface WrittenRunRow {
  run_id: string
  agent: string
  user_id: string
  session_id: string
  goal: string
  user_request: string
  expected_outcome: string
  environment: string
  model: string
  consumer: string
  status: RunStatus
  started_at: string
  completed_at: string | null
  duration_ms: number
  final_response: string
  confidence: number
  grade: 'pass' | 'fail' | null
  grade_source: string | null
  grade_reason: string | null
  grade_ref: string | null
  graded_at: string | null
  memories_used: string[]
  memories_written: string[]
  metadata: JsonObject
  budget_usd: number
  budget_seconds: number
}

interface WrittenRunRecord extends Omit<WrittenRunRow, 'started_at' | 'completed_at' | 'graded_at' | 'memories_written'> {
  org: string
  namespace: string
  started_at: number
  completed_at: number | null
  graded_at: number | null
  usage: UsageSummary | null
}

expectTypeOf<RunRow>().toEqualTypeOf<WrittenRunRow>()
expectTypeOf<RunRecord>().toEqualTypeOf<WrittenRunRecord>()
expectTypeOf<RunRowField>().toEqualTypeOf<keyof WrittenRunRow>()
