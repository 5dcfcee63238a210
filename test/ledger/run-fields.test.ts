/**
 * The one definition of a ledger run (src/ledger/run-fields.ts) yields what
 * every store wrote before there was one: PostgreSQL's released migration 1
 * byte for byte, the directory store's run in its key order, the run row's
 * published JSON Schema. A change to the definition that would change any of
 * them fails here: a released migration is never edited (a new column is a
 * migration of its own), and the files already written keep their form.
 */
import { describe, expect, it } from 'vitest'
import { checkedInput } from '../../src/ledger/validate-input.js'
import { MIGRATIONS } from '../../src/ledger/postgres/migrations.js'
import { RUN_COLUMNS, recordOf, valuesOf, type RunRow as ColumnRow } from '../../src/ledger/postgres/run-columns.js'
import { RUN_ROW_SCHEMA, toRunRow, type RunRecord } from '../../src/ledger/run-row.js'
import { completedRun, openedRun } from '../../src/ledger/run-rules.js'
import { recordedRun } from '../../src/ledger/directory/run-files.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { RELEASED_MIGRATION_1 } from './released-migrations.js'

/** The keys of a run the directory store writes under `ledger`, in the order it always wrote them. */
const STORED_ORDER = [
  'org',
  'namespace',
  'run_id',
  'agent',
  'user_id',
  'session_id',
  'goal',
  'user_request',
  'expected_outcome',
  'environment',
  'model',
  'consumer',
  'status',
  'started_at',
  'completed_at',
  'duration_ms',
  'final_response',
  'confidence',
  'grade',
  'grade_source',
  'grade_reason',
  'grade_ref',
  'graded_at',
  'memories_used',
  'metadata',
  'budget_usd',
  'budget_seconds',
  'usage',
]

const begun = (): RunRecord =>
  openedRun(
    checkedInput('run.begin', {
      org: 'acme',
      namespace: 'ci',
      agent: 'refund-agent',
      goal: 'Refund order 42',
      session_id: 's-1',
      role: 'planner',
      metadata: { pr: 7 },
      budget_usd: 0.5,
    }),
    'run-1',
    1_800_000_000.25,
  )

describe('the one definition of a ledger run', () => {
  it("yields PostgreSQL's migration 1 byte for byte as it was released", () => {
    expect(MIGRATIONS[0]?.sql).toBe(RELEASED_MIGRATION_1)
  })

  it('opens a run with every field, in the order the directory store has always written them, unset ones blank', () => {
    const run = begun()
    expect(Object.keys(run)).toEqual(STORED_ORDER)
    expect(run).toEqual({
      org: 'acme',
      namespace: 'ci',
      run_id: 'run-1',
      agent: 'refund-agent',
      user_id: '-',
      session_id: 's-1',
      goal: 'Refund order 42',
      user_request: '',
      expected_outcome: '',
      environment: '',
      model: '',
      consumer: '',
      status: 'active',
      started_at: 1_800_000_000.25,
      completed_at: null,
      duration_ms: 0,
      final_response: '',
      confidence: 0,
      grade: null,
      grade_source: null,
      grade_reason: null,
      grade_ref: null,
      graded_at: null,
      memories_used: [],
      metadata: { pr: 7, role: 'planner' },
      budget_usd: 0.5,
      budget_seconds: 0,
      usage: null,
    })
  })

  it('reads a trace file session() wrote as a run whose fields come in the same order, the ones a trace has not blank', () => {
    const trace = buildTrace('search-agent', [{ text: 'done' }], { metadata: { goal: 'Find it' }, started_at: 1_800_000_000, ended_at: 1_800_000_002 })
    const run = recordedRun(trace, { org: 'local', namespace: 'default' })
    expect(Object.keys(run)).toEqual(STORED_ORDER)
    expect(run).toMatchObject({
      user_request: '',
      final_response: '',
      confidence: 0,
      memories_used: [],
      usage: null,
      completed_at: 1_800_000_002,
      duration_ms: 2000,
    })
  })

  it('gives a run to PostgreSQL and takes it back unchanged, bigint columns arriving as text, with relied_on and search_text computed', () => {
    const run = completedRun(
      begun(),
      checkedInput('run.complete', { org: 'acme', namespace: 'ci', run_id: 'run-1', status: 'completed', memories_used: ['a', 'b'], duration_ms: 1500 }),
      1_800_000_001,
    )
    const values = valuesOf(run)
    const sent = Object.fromEntries(RUN_COLUMNS.map((column, i) => [column, values[i]]))
    expect(sent).toMatchObject({
      relied_on: 2,
      search_text: 'refund order 42\nrun-1\nrefund-agent',
      memories_used: '["a","b"]',
      usage: null,
      metadata: '{"pr":7,"role":"planner"}',
    })
    // What node-postgres hands back: jsonb parsed, bigint as text.
    const received = { ...sent, memories_used: ['a', 'b'], metadata: { pr: 7, role: 'planner' }, duration_ms: '1500', budget_seconds: '0' } as ColumnRow
    const back = recordOf(received)
    expect(Object.keys(back)).toEqual(STORED_ORDER)
    expect(back).toEqual(run)
  })

  it('shows a stored run as the row the operations return: times as ISO text, memories_written empty', () => {
    expect(toRunRow(begun())).toEqual({
      run_id: 'run-1',
      agent: 'refund-agent',
      user_id: '-',
      session_id: 's-1',
      goal: 'Refund order 42',
      user_request: '',
      expected_outcome: '',
      environment: '',
      model: '',
      consumer: '',
      status: 'active',
      started_at: '2027-01-15T08:00:00.250Z',
      completed_at: null,
      duration_ms: 0,
      final_response: '',
      confidence: 0,
      grade: null,
      grade_source: null,
      grade_reason: null,
      grade_ref: null,
      graded_at: null,
      memories_used: [],
      memories_written: [],
      metadata: { pr: 7, role: 'planner' },
      budget_usd: 0.5,
      budget_seconds: 0,
    })
  })

  it("publishes the run row's JSON Schema as it was", () => {
    const text = { type: 'string' }
    const textOrNull = { type: ['string', 'null'] }
    const isoTime = { type: 'string', description: 'ISO 8601, UTC, with a Z' }
    expect(JSON.stringify(RUN_ROW_SCHEMA)).toBe(
      JSON.stringify({
        $id: 'https://reagent-flow.dev/schema/ledger/run-row.json',
        title: 'RunRow',
        type: 'object',
        additionalProperties: false,
        properties: {
          run_id: { ...text, description: 'The run id (a ULID when the server minted it).' },
          agent: { ...text, description: 'The agent that ran; for a run session() wrote, the trace name.' },
          user_id: { ...text, description: "The end user; '-' for none." },
          session_id: { ...text, description: "The conversation; '-' for none." },
          goal: { ...text, description: 'What the run set out to do.' },
          user_request: text,
          expected_outcome: text,
          environment: text,
          model: text,
          consumer: text,
          status: { enum: ['active', 'completed', 'failed', 'cancelled'] },
          started_at: isoTime,
          completed_at: { ...isoTime, type: ['string', 'null'] },
          duration_ms: { type: 'integer', minimum: 0, description: '0 while active.' },
          final_response: text,
          confidence: { type: 'number' },
          grade: { enum: ['pass', 'fail', null] },
          grade_source: textOrNull,
          grade_reason: textOrNull,
          grade_ref: textOrNull,
          graded_at: { ...isoTime, type: ['string', 'null'] },
          memories_used: { type: 'array', items: text },
          memories_written: { type: 'array', items: text, description: 'Always empty: this ledger has no memory store.' },
          metadata: { type: 'object' },
          budget_usd: { type: 'number', minimum: 0 },
          budget_seconds: { type: 'integer', minimum: 0 },
        },
      }),
    )
  })
})
