/** Conformance: run.get (with trace.put for the trace it prices) and run.grade. */
import { expect, it } from 'vitest'
import { buildTrace } from '../../helpers/trace-builder.js'
import type { StartLedger } from '../harness.js'
import { begin, openedRow, rowOf } from './begin-complete.js'

/** gpt-4o: 0.0025 + 0.001; claude-sonnet-4-5: 0.003 + 0.0015; then a model the table does not know, and a turn without usage. */
export const pricedTrace = () =>
  buildTrace('refund-agent', [
    { model: 'gpt-4o-2024-08-06', tokens: { input_tokens: 1000, output_tokens: 100 } },
    { model: 'claude-sonnet-4-5-20250929', tokens: { input_tokens: 1000, output_tokens: 100 } },
    { model: 'llama-3-8b', tokens: { input_tokens: 10, output_tokens: 10 } },
    { text: 'Refunded.', tokens: null },
  ])

export function getConformance(start: StartLedger): void {
  it('trace.get answers the turns trace.put kept, null before one was put, and run_not_found for a run that is not there', async () => {
    const ledger = await start()
    const runId = await begin(ledger)
    expect(await ledger.call('trace.get', { run_id: runId })).toEqual({ status: 200, body: { run_id: runId, trace: null } })
    await ledger.call('trace.put', { run_id: runId, trace: pricedTrace() }, { gzip: true })
    // The turns as put; a store may set the run's own fields (its status, while it is open) on the trace it keeps.
    const { name, trace_id, turns, format_version } = pricedTrace()
    expect(await ledger.call('trace.get', { run_id: runId })).toEqual({
      status: 200,
      body: { run_id: runId, trace: expect.objectContaining({ name, trace_id, turns, format_version }) },
    })
    expect(await ledger.call('trace.get', { run_id: 'nope' })).toEqual({
      status: 404,
      body: {
        error: 'run_not_found',
        message: `trace.get: no run "nope" in namespace "default" of org "${ledger.org}"; run.begin opens one, run.list shows the ones there are`,
      },
    })
  })

  it('run.get of a run that is not there answers found: false and every other field empty', async () => {
    const ledger = await start()
    expect(await ledger.call('run.get', { run_id: 'nope' })).toEqual({
      status: 200,
      body: {
        found: false,
        run: null,
        recalled: 0,
        recalled_keys: [],
        memories_written: [],
        observations: 0,
        turns: 0,
        unpriced_turns: 0,
        cost_usd: 0,
        elapsed_seconds: 0,
        over_budget: [],
      },
    })
  })

  it('run.get counts elapsed seconds to now while active and to completed_at after, and reports the time budget gone past', async () => {
    const ledger = await start()
    const runId = await begin(ledger, { budget_seconds: 10 })
    ledger.clock.advance(9.9)
    expect((await ledger.call('run.get', { run_id: runId })).body).toMatchObject({ elapsed_seconds: 9, over_budget: [] })
    ledger.clock.advance(1.2)
    expect((await ledger.call('run.get', { run_id: runId })).body).toMatchObject({ elapsed_seconds: 11, over_budget: ['time'] })
    await ledger.call('run.complete', { run_id: runId, status: 'completed' })
    ledger.clock.advance(100)
    expect((await ledger.call('run.get', { run_id: runId })).body).toMatchObject({ elapsed_seconds: 11, over_budget: ['time'] })
  })

  it('run.get prices the turns of the trace put with trace.put (gzip), counts the unpriced ones, and reports the cost budget gone past', async () => {
    const ledger = await start()
    const runId = await begin(ledger, { session_id: 'conv-1', budget_usd: 0.005 })
    expect((await ledger.call('run.get', { run_id: runId })).body).toMatchObject({ turns: 0, cost_usd: 0, unpriced_turns: 0, over_budget: [] })
    const put = await ledger.call('trace.put', { run_id: runId, trace: pricedTrace() }, { gzip: true })
    expect(put.status).toBe(200)
    expect(put.body).toEqual({ run_id: runId, turns: 4, bytes: expect.any(Number), stored_bytes: expect.any(Number) })
    // What the store keeps for it: compressed (PostgreSQL) or the run's file (the directory store), never more than that file.
    const { bytes, stored_bytes: stored } = put.body as { bytes: number; stored_bytes: number }
    expect([stored > 0, stored <= bytes]).toEqual([true, true])
    const reply = await ledger.call<Record<string, unknown>>('run.get', { run_id: runId })
    expect(reply.body).toEqual({
      found: true,
      run: openedRow(runId, { session_id: 'conv-1', budget_usd: 0.005 }),
      recalled: 0,
      recalled_keys: [],
      memories_written: [],
      observations: 0,
      turns: 4,
      unpriced_turns: 2,
      cost_usd: expect.closeTo(0.008, 12),
      elapsed_seconds: 0,
      over_budget: ['cost'],
    })
  })

  it('trace.put replaces the trace, checks it against the trace format (422 naming the path) and needs a run (404)', async () => {
    const ledger = await start()
    const runId = await begin(ledger)
    await ledger.call('trace.put', { run_id: runId, trace: pricedTrace() })
    await ledger.call('trace.put', { run_id: runId, trace: buildTrace('refund-agent', [{ tokens: { input_tokens: 1, output_tokens: 1 } }]) })
    expect((await ledger.call('run.get', { run_id: runId })).body).toMatchObject({ turns: 1, unpriced_turns: 0 })
    const bad = pricedTrace() as unknown as { turns: Array<{ llm_call: Record<string, unknown> }> }
    delete bad.turns[1]!.llm_call.tool_calls
    expect(await ledger.call('trace.put', { run_id: runId, trace: bad })).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message: 'trace.put: trace.turns[1].llm_call missing required key "tool_calls" (rule: required); the trace must be in trace format "1"',
        field: 'trace.turns[1].llm_call',
        rule: 'required',
      },
    })
    expect(await ledger.call('trace.put', { run_id: 'nope', trace: pricedTrace() })).toEqual({
      status: 404,
      body: {
        error: 'run_not_found',
        message: `trace.put: no run "nope" in namespace "default" of org "${ledger.org}"; run.begin opens one, run.list shows the ones there are`,
      },
    })
  })
}

export function gradeConformance(start: StartLedger): void {
  it('run.grade writes a verdict on a closed run; the same verdict again is unchanged, a new reason grades again', async () => {
    const ledger = await start()
    const runId = await begin(ledger)
    await ledger.call('run.complete', { run_id: runId, status: 'completed', memories_used: ['m1'] })
    ledger.clock.advance(86_400)
    const verdict = { run_id: runId, grade: 'pass', source: 'ci', reason: 'checks passed', ref: 'https://ci.example.com/run/812' }
    expect(await ledger.call('run.grade', verdict)).toEqual({
      status: 200,
      body: { graded: 1, run_ids: [runId], skipped_active: 0, unchanged: 0, memories_counted: 1, proposals_decided: [] },
    })
    expect(await rowOf(ledger, runId)).toMatchObject({
      grade: 'pass',
      grade_source: 'ci',
      grade_reason: 'checks passed',
      grade_ref: 'https://ci.example.com/run/812',
      graded_at: '2027-01-16T08:00:00.000Z',
    })
    expect((await ledger.call('run.grade', verdict)).body).toEqual({
      graded: 0,
      run_ids: [],
      skipped_active: 0,
      unchanged: 1,
      memories_counted: 0,
      proposals_decided: [],
    })
    expect((await ledger.call('run.grade', { ...verdict, grade: 'fail', reason: 'refunded twice' })).body).toMatchObject({ graded: 1 })
    expect(await rowOf(ledger, runId)).toMatchObject({ grade: 'fail', grade_reason: 'refunded twice' })
  })

  it('run.grade defaults source to "caller", reason and ref to ""', async () => {
    const ledger = await start()
    const runId = await begin(ledger)
    await ledger.call('run.complete', { run_id: runId, status: 'failed' })
    await ledger.call('run.grade', { run_id: runId, grade: 'fail' })
    expect(await rowOf(ledger, runId)).toMatchObject({
      grade: 'fail',
      grade_source: 'caller',
      grade_reason: '',
      grade_ref: '',
      graded_at: '2027-01-15T08:00:00.000Z',
    })
  })

  it('run.grade by session_id grades every closed run of it, oldest first, and leaves the active ones', async () => {
    const ledger = await start()
    const first = await begin(ledger, { session_id: 'conv-1' })
    ledger.clock.advance(1)
    const second = await begin(ledger, { session_id: 'conv-1' })
    ledger.clock.advance(1)
    const active = await begin(ledger, { session_id: 'conv-1' })
    const elsewhere = await begin(ledger, { session_id: 'conv-2' })
    for (const runId of [second, first, elsewhere]) await ledger.call('run.complete', { run_id: runId, status: 'completed', memories_used: ['m1', runId] })
    expect((await ledger.call('run.grade', { session_id: 'conv-1', grade: 'pass' })).body).toEqual({
      graded: 2,
      run_ids: [first, second],
      skipped_active: 1,
      unchanged: 0,
      memories_counted: 3,
      proposals_decided: [],
    })
    expect([(await rowOf(ledger, active)).grade, (await rowOf(ledger, elsewhere)).grade]).toEqual([null, null])
  })

  it('run.grade needs a run_id or a session_id (422) and a run that is there (404)', async () => {
    const ledger = await start()
    expect(await ledger.call('run.grade', { grade: 'pass' })).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message: 'run.grade: give run_id (one run) or session_id (every closed run of it) (rule: required)',
        field: 'run_id',
        rule: 'required',
      },
    })
    expect((await ledger.call('run.grade', { run_id: '-', session_id: '', grade: 'pass' })).status).toBe(422)
    expect((await ledger.call('run.grade', { run_id: 'x', grade: 'maybe' })).body).toMatchObject({ field: 'grade', rule: 'enum' })
    expect(await ledger.call('run.grade', { run_id: 'nope', grade: 'pass' })).toEqual({
      status: 404,
      body: {
        error: 'run_not_found',
        message: `run.grade: no run "nope" in namespace "default" of org "${ledger.org}"; run.begin opens one, run.list shows the ones there are`,
      },
    })
    expect((await ledger.call('run.grade', { session_id: 'no-such-session', grade: 'pass' })).body).toEqual({
      graded: 0,
      run_ids: [],
      skipped_active: 0,
      unchanged: 0,
      memories_counted: 0,
      proposals_decided: [],
    })
  })
}
