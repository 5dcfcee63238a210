/**
 * The 100,000 runs of the run.list figure, the same in both stores: as the
 * trace files session() writes (the directory store reads them as its runs)
 * and as rows (inserted into PostgreSQL). 50 agents, 100 sessions, some
 * failed or cancelled, a fifth graded. Deterministic.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { RunRecord } from '../../src/ledger/run-row.js'
import type { Trace } from '../../src/trace/types.js'

export const LIST_RUNS = 100_000
const BASE_TIME = 1_796_000_000

function statusOf(i: number): RunRecord['status'] {
  return i % 13 === 0 ? 'failed' : i % 97 === 0 ? 'cancelled' : 'completed'
}

export function benchRun(i: number): RunRecord {
  const started = BASE_TIME + i * 37
  const duration = ((i % 9) + 1) * 800
  const graded = i % 5 === 0
  return {
    org: 'local',
    namespace: 'default',
    run_id: `01JBENCH${String(i).padStart(18, '0')}`,
    agent: `agent-${i % 50}`,
    user_id: '-',
    session_id: `session-${i % 100}`,
    goal: `Refund order ${i}`,
    user_request: '',
    expected_outcome: '',
    environment: '',
    model: '',
    consumer: '',
    status: statusOf(i),
    started_at: started,
    completed_at: started + duration / 1000,
    duration_ms: duration,
    final_response: '',
    confidence: 0,
    grade: graded ? (i % 10 === 0 ? 'pass' : 'fail') : null,
    grade_source: graded ? 'ci' : null,
    grade_reason: graded ? '' : null,
    grade_ref: graded ? '' : null,
    graded_at: graded ? started + 60 : null,
    memories_used: [],
    metadata: { goal: `Refund order ${i}` },
    budget_usd: 0,
    budget_seconds: 0,
    usage: null,
  }
}

/** The runs as trace files in `dir`, one turn each, as the recorder writes them. */
export function writeLedgerDir(dir: string): void {
  mkdirSync(dir, { recursive: true })
  for (let i = 0; i < LIST_RUNS; i++) {
    const run = benchRun(i)
    const trace: Trace = {
      trace_id: run.run_id,
      name: run.agent,
      turns: [
        {
          index: 0,
          llm_call: {
            messages: null,
            response_text: 'Refunded.',
            tool_calls: [],
            model: 'gpt-4o',
            token_usage: { input_tokens: 900, output_tokens: 30 },
            timestamp: run.started_at,
          },
          tool_results: [],
          duration_ms: run.duration_ms,
        },
      ],
      metadata: run.metadata,
      started_at: run.started_at,
      ended_at: run.completed_at,
      format_version: '1',
      parent_trace_id: null,
      handoff_context: null,
      status: run.status as Trace['status'] & string,
      error: null,
      session_id: run.session_id,
      user_id: null,
      ...(run.grade === null ? {} : { grade: { grade: run.grade, source: 'ci', reason: '', ref: '', graded_at: run.graded_at! } }),
    }
    writeFileSync(join(dir, `run-${i}.trace.json`), `${JSON.stringify(trace, null, 2)}\n`)
  }
}
