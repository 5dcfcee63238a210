/** Conformance: run.begin and run.complete, field for field. */
import { expect, it } from 'vitest'
import { T0, type StartLedger, type TestLedger } from '../harness.js'

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/
const ISO_T0 = '2027-01-15T08:00:00.000Z'

export const nudge = (runId: string): string =>
  `Work on the task, then call run.complete (MCP: loom_run_complete) exactly once with run_id "${runId}" and status completed, failed or cancelled.`

export async function begin(ledger: TestLedger, body: Record<string, unknown> = {}): Promise<string> {
  const reply = await ledger.call<{ run_id: string }>('run.begin', { agent: 'refund-agent', goal: 'Refund order 42', ...body })
  expect(reply.status).toBe(200)
  return reply.body.run_id
}

/** The row run.get returns for a run just begun with `begin`'s defaults, at T0. */
export function openedRow(runId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    run_id: runId,
    agent: 'refund-agent',
    user_id: '-',
    session_id: '-',
    goal: 'Refund order 42',
    user_request: '',
    expected_outcome: '',
    environment: '',
    model: '',
    consumer: '',
    status: 'active',
    started_at: ISO_T0,
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
    metadata: {},
    budget_usd: 0,
    budget_seconds: 0,
    ...extra,
  }
}

export async function rowOf(ledger: TestLedger, runId: string): Promise<Record<string, unknown>> {
  const reply = await ledger.call<{ run: Record<string, unknown> }>('run.get', { run_id: runId })
  expect(reply.status).toBe(200)
  return reply.body.run
}

export function beginConformance(start: StartLedger): void {
  it('run.begin mints a ULID when run_id is empty or "-", opens the run active and says what to do next', async () => {
    const ledger = await start()
    for (const runId of [undefined, '', '-']) {
      const reply = await ledger.call<{ run_id: string }>('run.begin', {
        agent: 'refund-agent',
        goal: 'Refund order 42',
        ...(runId === undefined ? {} : { run_id: runId }),
      })
      expect(reply.status).toBe(200)
      expect(reply.body.run_id).toMatch(ULID)
      expect(reply.body).toEqual({ run_id: reply.body.run_id, status: 'active', started_at: ISO_T0, next: nudge(reply.body.run_id) })
    }
  })

  it('run.begin stores every field it takes on the run row, role in metadata', async () => {
    const ledger = await start()
    const reply = await ledger.call('run.begin', {
      agent: 'refund-agent',
      user_id: 'alice',
      session_id: 'conv-42',
      run_id: 'run-1',
      goal: 'Refund order 42',
      user_request: 'My order 42 arrived broken',
      expected_outcome: 'A refund of $19.99',
      environment: 'ci',
      model: 'gpt-4o',
      consumer: 'vitest',
      role: 'executor',
      metadata: { ticket: 'T-7', nested: { a: [1, 2] } },
      budget_usd: 0.5,
      budget_seconds: 30,
    })
    expect(reply).toEqual({ status: 200, body: { run_id: 'run-1', status: 'active', started_at: ISO_T0, next: nudge('run-1') } })
    expect(await rowOf(ledger, 'run-1')).toEqual(
      openedRow('run-1', {
        user_id: 'alice',
        session_id: 'conv-42',
        user_request: 'My order 42 arrived broken',
        expected_outcome: 'A refund of $19.99',
        environment: 'ci',
        model: 'gpt-4o',
        consumer: 'vitest',
        metadata: { ticket: 'T-7', nested: { a: [1, 2] }, role: 'executor' },
        budget_usd: 0.5,
        budget_seconds: 30,
      }),
    )
  })

  it('run.begin re-sent with the same run_id keeps the first started_at and budgets, and takes the new goal and metadata', async () => {
    const ledger = await start()
    await begin(ledger, { run_id: 'run-1', session_id: 's', budget_usd: 1, budget_seconds: 60, metadata: { a: 1, b: 1 } })
    ledger.clock.advance(5)
    const again = await ledger.call('run.begin', {
      agent: 'refund-agent',
      session_id: 's',
      run_id: 'run-1',
      goal: 'Refund order 43',
      budget_usd: 9,
      budget_seconds: 9,
      metadata: { b: 2 },
    })
    expect(again).toEqual({ status: 200, body: { run_id: 'run-1', status: 'active', started_at: ISO_T0, next: nudge('run-1') } })
    expect(await rowOf(ledger, 'run-1')).toEqual(
      openedRow('run-1', { session_id: 's', goal: 'Refund order 43', budget_usd: 1, budget_seconds: 60, metadata: { a: 1, b: 2 } }),
    )
  })

  it('run.begin re-sent for a closed run changes nothing and says so', async () => {
    const ledger = await start()
    await begin(ledger, { run_id: 'run-1' })
    await ledger.call('run.complete', { run_id: 'run-1', status: 'failed' })
    const before = await rowOf(ledger, 'run-1')
    const again = await ledger.call('run.begin', { agent: 'refund-agent', run_id: 'run-1', goal: 'Another goal' })
    expect(again).toEqual({
      status: 200,
      body: { run_id: 'run-1', status: 'failed', started_at: ISO_T0, next: 'Run "run-1" is already failed; send an empty run_id to open a new run.' },
    })
    expect(await rowOf(ledger, 'run-1')).toEqual(before)
  })

  it('run.begin refuses a run_id that belongs to another agent, user or session (409)', async () => {
    const ledger = await start()
    await begin(ledger, { run_id: 'run-1', session_id: 'conv-1' })
    expect(await ledger.call('run.begin', { agent: 'other-agent', run_id: 'run-1', session_id: 'conv-1', goal: 'x' })).toEqual({
      status: 409,
      body: {
        error: 'run_conflict',
        message: 'run.begin: run "run-1" belongs to another agent; send an empty run_id to open a new run',
      },
    })
    expect((await ledger.call('run.begin', { agent: 'refund-agent', run_id: 'run-1', goal: 'x' })).body).toEqual({
      error: 'run_conflict',
      message: 'run.begin: run "run-1" belongs to another session; send an empty run_id to open a new run',
    })
  })

  it('run.begin refuses a cost budget without a session_id, and a body without goal or agent (422)', async () => {
    const ledger = await start()
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g', budget_usd: 0.5 })).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message: 'run.begin: budget_usd needs a session_id: the cost budget is kept per session (rule: needs_session_id)',
        field: 'budget_usd',
        rule: 'needs_session_id',
      },
    })
    expect(await ledger.call('run.begin', { agent: 'a' })).toEqual({
      status: 422,
      body: { error: 'invalid_input', message: 'run.begin: goal is required (rule: required)', field: 'goal', rule: 'required' },
    })
    expect((await ledger.call('run.begin', { goal: 'g' })).body).toEqual({
      error: 'invalid_input',
      message: 'run.begin: agent is required (rule: required)',
      field: 'agent',
      rule: 'required',
    })
    expect((await ledger.call('run.begin', { agent: 'a', goal: 'g', budget_seconds: 1.5 })).body).toEqual({
      error: 'invalid_input',
      message: 'run.begin: budget_seconds must be integer (rule: type)',
      field: 'budget_seconds',
      rule: 'type',
    })
    expect((await ledger.call('run.begin', { agent: 'a', goal: '' })).body).toMatchObject({ message: 'run.begin: goal must not be empty (rule: minLength)' })
  })

  it('serves unknown input fields and names them in ignored_args', async () => {
    const ledger = await start()
    const reply = await ledger.call<{ run_id: string }>('run.begin', { agent: 'a', goal: 'g', colour: 'blue', tags: [] })
    expect(reply.body).toMatchObject({ status: 'active', ignored_args: ['colour', 'tags'] })
    expect((await ledger.call('run.get', { run_id: reply.body.run_id, verbose: true })).body).toMatchObject({ found: true, ignored_args: ['verbose'] })
  })
}

export function completeConformance(start: StartLedger): void {
  it('run.complete closes the run once: the status, a duration from started_at, and what an empty memory store answers', async () => {
    const ledger = await start()
    const runId = await begin(ledger)
    ledger.clock.advance(2.5)
    expect(await ledger.call('run.complete', { run_id: runId, status: 'completed' })).toEqual({
      status: 200,
      body: {
        run_id: runId,
        status: 'completed',
        duration_ms: 2500,
        used_applied: 0,
        evidence_applied: 0,
        harm_applied: 0,
        memories_written: [],
        recalled: -1,
        observations: 0,
        procedure_runs_recorded: 0,
        reflection_key: '',
        retain: 'keep',
        retained: 0,
        demoted: 0,
        expiring: 0,
      },
    })
    expect(await rowOf(ledger, runId)).toEqual(openedRow(runId, { status: 'completed', completed_at: '2027-01-15T08:00:02.500Z', duration_ms: 2500 }))
  })

  it('run.complete stores the final response, confidence and memories used, merges metadata (given keys win) and takes a duration_ms', async () => {
    const ledger = await start()
    const runId = await begin(ledger, { metadata: { a: 1, b: 1 }, role: 'critic' })
    ledger.clock.advance(1)
    const reply = await ledger.call('run.complete', {
      run_id: runId,
      status: 'cancelled',
      final_response: 'Stopped.',
      confidence: 0.25,
      memories_used: ['m1', 'm2'],
      recalled_keys: ['m1', 'm2', 'm3'],
      outcome: 'none',
      weight: 3,
      duration_ms: 42,
      metadata: { b: 2, c: 3 },
      reflection: { lesson: 'ask first' },
      retain: 'demote',
    })
    expect(reply.body).toMatchObject({ status: 'cancelled', duration_ms: 42, retain: 'demote', reflection_key: '' })
    expect(await rowOf(ledger, runId)).toEqual(
      openedRow(runId, {
        status: 'cancelled',
        completed_at: '2027-01-15T08:00:01.000Z',
        duration_ms: 42,
        final_response: 'Stopped.',
        confidence: 0.25,
        memories_used: ['m1', 'm2'],
        metadata: { a: 1, b: 2, role: 'critic', c: 3 },
      }),
    )
  })

  it('run.complete of a closed run is refused with 409 and changes nothing', async () => {
    const ledger = await start()
    const runId = await begin(ledger)
    await ledger.call('run.complete', { run_id: runId, status: 'completed', final_response: 'first' })
    const before = await rowOf(ledger, runId)
    ledger.clock.advance(10)
    expect(await ledger.call('run.complete', { run_id: runId, status: 'failed', final_response: 'second' })).toEqual({
      status: 409,
      body: {
        error: 'run_closed',
        message: `run.complete: run "${runId}" is already completed at 2027-01-15T08:00:00.000Z; a run is completed exactly once, and this call changed nothing`,
      },
    })
    expect(await rowOf(ledger, runId)).toEqual(before)
  })

  it('run.complete of a run that is not there, or not of the given session, is a 404', async () => {
    const ledger = await start()
    const notFound = {
      status: 404,
      body: {
        error: 'run_not_found',
        message: `run.complete: no run "nope" in namespace "default" of org "${ledger.org}"; run.begin opens one, run.list shows the ones there are`,
      },
    }
    expect(await ledger.call('run.complete', { run_id: 'nope', status: 'completed' })).toEqual(notFound)
    await begin(ledger, { run_id: 'run-1', session_id: 'conv-1', user_id: 'alice' })
    expect((await ledger.call('run.complete', { run_id: 'run-1', session_id: 'conv-2', status: 'completed' })).status).toBe(404)
    expect((await ledger.call('run.complete', { run_id: 'run-1', user_id: 'bob', status: 'completed' })).status).toBe(404)
    expect((await ledger.call('run.complete', { run_id: 'run-1', session_id: 'conv-1', user_id: 'alice', status: 'completed' })).status).toBe(200)
  })

  it('run.complete checks status, confidence and weight (422)', async () => {
    const ledger = await start()
    const runId = await begin(ledger)
    expect(await ledger.call('run.complete', { run_id: runId, status: 'active' })).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message: 'run.complete: status must be one of "completed", "failed", "cancelled" (rule: enum)',
        field: 'status',
        rule: 'enum',
      },
    })
    expect((await ledger.call('run.complete', { run_id: runId, status: 'completed', confidence: 1.5 })).body).toEqual({
      error: 'invalid_input',
      message: 'run.complete: confidence must be <= 1 (rule: maximum)',
      field: 'confidence',
      rule: 'maximum',
    })
    expect((await ledger.call('run.complete', { run_id: runId, status: 'completed', weight: 0 })).body).toMatchObject({ field: 'weight', rule: 'minimum' })
    expect((await ledger.call('run.complete', { run_id: runId, status: 'completed', memories_used: ['a', 1] })).body).toMatchObject({
      field: 'memories_used[1]',
      rule: 'type',
    })
    expect((await rowOf(ledger, runId)).status).toBe('active')
  })

  it('keeps started_at to the millisecond in ISO UTC with a Z', async () => {
    const ledger = await start()
    ledger.clock.seconds = T0 + 0.123456
    const runId = await begin(ledger)
    expect((await rowOf(ledger, runId)).started_at).toBe('2027-01-15T08:00:00.123Z')
  })
}
