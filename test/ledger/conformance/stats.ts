/** Conformance: run.stats's groups, buckets, window, pass rate, percentiles, usage and scope, on a seeded set of runs. */
import { expect, it } from 'vitest'
import { T0, type StartLedger, type TestLedger } from '../harness.js'
import { pricedTrace } from './get-grade.js'
import { TOKENS, tokenFile } from './http-identity.js'

const DAY = 86_400
const MAIN = { git_branch: 'main', git_commit: 'abc123', test_name: 'refunds > refunds order 42' }

/**
 * Seven runs; T0 is Friday 2027-01-15 08:00 UTC, T0 + 1 day a Saturday of the same ISO week:
 *
 *   id   agent        started     status     duration grade  metadata          trace
 *   a1   refund-agent T0          completed  1000     pass   MAIN              pricedTrace (4 turns, $0.008)
 *   a2   refund-agent T0+60       failed     3000     -      -
 *   a3   refund-agent T0+120      completed  2000     fail   -
 *   a4   refund-agent T0+180      active     -        -      -
 *   a5   refund-agent T0+1d       completed  500      -      MAIN
 *   b1   search-agent T0+10       cancelled  4000     -      git_branch: 7 (not a string)
 *   old  refund-agent T0-40d      completed  10       -      MAIN              (before the 30-day window)
 */
/** `base` moves every run (and the clock) by that many seconds: tests of the fixed org `acme` move past the runs other tests leave there. */
export async function sevenRuns(ledger: TestLedger, token?: string, base = 0): Promise<void> {
  const init = token === undefined ? {} : { token }
  const open = async (runId: string, agent: string, at: number, metadata: Record<string, unknown> = {}): Promise<void> => {
    ledger.clock.seconds = T0 + base + at
    expect((await ledger.call('run.begin', { run_id: runId, agent, goal: 'Refund order 42', metadata }, init)).status).toBe(200)
  }
  const close = async (runId: string, status: string, duration: number): Promise<void> => {
    expect((await ledger.call('run.complete', { run_id: runId, status, duration_ms: duration }, init)).status).toBe(200)
  }
  await open('old', 'refund-agent', -40 * DAY, MAIN)
  await close('old', 'completed', 10)
  await open('a1', 'refund-agent', 0, MAIN)
  await open('b1', 'search-agent', 10, { git_branch: 7 })
  await open('a2', 'refund-agent', 60)
  await open('a3', 'refund-agent', 120)
  await open('a4', 'refund-agent', 180)
  await close('a1', 'completed', 1000)
  await close('b1', 'cancelled', 4000)
  await close('a2', 'failed', 3000)
  await close('a3', 'completed', 2000)
  expect((await ledger.call('trace.put', { run_id: 'a1', trace: pricedTrace() }, { ...init, gzip: true })).status).toBe(200)
  await ledger.call('run.grade', { run_id: 'a1', grade: 'pass' }, init)
  await ledger.call('run.grade', { run_id: 'a3', grade: 'fail' }, init)
  await open('a5', 'refund-agent', DAY, MAIN)
  await close('a5', 'completed', 500)
  ledger.clock.seconds = T0 + base + DAY + 100
}

const empty = { turns: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, unpriced_turns: 0 }
const priced = { turns: 4, input_tokens: 2010, output_tokens: 210, cost_usd: expect.closeTo(0.008, 12), unpriced_turns: 2 }

const refundDay1 = {
  key: 'refund-agent',
  bucket_start: '2027-01-15T00:00:00.000Z',
  runs: 4,
  closed: 3,
  passed: 1,
  pass_rate: 1 / 3,
  ...priced,
  duration_p50_ms: 2000,
  duration_p95_ms: 3000,
}
const refundDay2 = {
  key: 'refund-agent',
  bucket_start: '2027-01-16T00:00:00.000Z',
  runs: 1,
  closed: 1,
  passed: 1,
  pass_rate: 1,
  ...empty,
  duration_p50_ms: 500,
  duration_p95_ms: 500,
}
const searchDay1 = {
  key: 'search-agent',
  bucket_start: '2027-01-15T00:00:00.000Z',
  runs: 1,
  closed: 1,
  passed: 0,
  pass_rate: 0,
  ...empty,
  duration_p50_ms: 4000,
  duration_p95_ms: 4000,
}
const since = new Date((T0 + DAY + 100 - 30 * DAY) * 1000).toISOString()

export function statsConformance(start: StartLedger): void {
  it('run.stats counts runs, pass rate, usage and nearest-rank duration percentiles per agent and day over the last 30 days', async () => {
    const ledger = await start()
    await sevenRuns(ledger)
    expect(await ledger.call('run.stats', {})).toEqual({
      status: 200,
      body: { by: 'agent', bucket: 'day', since, rows: [refundDay1, refundDay2, searchDay1] },
    })
  })

  it('run.stats groups by ISO week (Monday), by hour, by branch, test and commit from the metadata, and narrows to an agent and a window', async () => {
    const ledger = await start()
    await sevenRuns(ledger)
    const rows = async (body: Record<string, unknown>) => (await ledger.call<{ rows: Array<Record<string, unknown>> }>('run.stats', body)).body.rows
    expect(await rows({ bucket: 'week', agent: 'refund-agent' })).toEqual([
      { ...refundDay1, bucket_start: '2027-01-11T00:00:00.000Z', runs: 5, closed: 4, passed: 2, pass_rate: 0.5, duration_p50_ms: 1000, duration_p95_ms: 3000 },
    ])
    expect((await rows({ bucket: 'hour' })).map((row) => [row.key, row.bucket_start, row.runs])).toEqual([
      ['refund-agent', '2027-01-15T08:00:00.000Z', 4],
      ['refund-agent', '2027-01-16T08:00:00.000Z', 1],
      ['search-agent', '2027-01-15T08:00:00.000Z', 1],
    ])
    // Runs without a string branch (none, or a number) are the group "".
    expect((await rows({ by: 'branch' })).map((row) => [row.key, row.bucket_start, row.runs, row.passed])).toEqual([
      ['', '2027-01-15T00:00:00.000Z', 4, 0],
      ['main', '2027-01-15T00:00:00.000Z', 1, 1],
      ['main', '2027-01-16T00:00:00.000Z', 1, 1],
    ])
    expect((await rows({ by: 'commit', bucket: 'week' })).map((row) => [row.key, row.runs])).toEqual([
      ['', 4],
      ['abc123', 2],
    ])
    expect((await rows({ by: 'test', since: '12h' })).map((row) => [row.key, row.bucket_start, row.runs])).toEqual([
      ['refunds > refunds order 42', '2027-01-16T00:00:00.000Z', 1],
    ])
    expect((await rows({ since: '42d', agent: 'refund-agent' })).map((row) => row.bucket_start)).toEqual([
      '2026-12-06T00:00:00.000Z',
      '2027-01-15T00:00:00.000Z',
      '2027-01-16T00:00:00.000Z',
    ])
    expect(await rows({ agent: 'nobody' })).toEqual([])
  })

  it("run.stats refuses a bad by, bucket or since with a 422 naming the field, and sees only the token's namespace and agent", async () => {
    const ledger = await start({ tokens: tokenFile() })
    // The org of the token file is shared by the tests of a PostgreSQL database: a thousand days on, no other test's run is in the window.
    const base = 1000 * DAY
    await sevenRuns(ledger, TOKENS.prod, base)
    for (const [field, value] of [
      ['by', 'model'],
      ['bucket', 'month'],
      ['since', '30 days'],
      ['since', '0d'],
      ['since', 30],
    ] as const) {
      const reply = await ledger.call<Record<string, unknown>>('run.stats', { [field]: value }, { token: TOKENS.prod })
      expect({ field, status: reply.status, error: reply.body.error, named: reply.body.field }).toEqual({
        field,
        status: 422,
        error: 'invalid_input',
        named: field,
      })
    }
    const later = new Date((T0 + base + DAY + 100 - 30 * DAY) * 1000).toISOString()
    expect((await ledger.call('run.stats', {}, { token: TOKENS.ci })).body).toEqual({ by: 'agent', bucket: 'day', since: later, rows: [] })
    const bot = await ledger.call<{ rows: Array<{ key: string }> }>('run.stats', {}, { token: TOKENS.refundBot })
    expect(bot.body.rows.map((row) => row.key)).toEqual(['refund-agent', 'refund-agent'])
    expect(await ledger.call('run.stats', { agent: 'search-agent' }, { token: TOKENS.refundBot })).toEqual({
      status: 403,
      body: {
        error: 'forbidden',
        message: 'run.stats: agent "search-agent" is outside this token\'s scope (refund-bot may use agent "refund-agent" only)',
        field: 'agent',
      },
    })
  })
}
