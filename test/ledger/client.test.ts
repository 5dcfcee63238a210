import { describe, expect, it } from 'vitest'
import { createLedgerClient, LedgerError } from '../../src/entries/ledger.js'
import { renderTrace } from '../../src/storage/index.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { startDirectoryLedger } from './harness.js'

describe('createLedgerClient(url, { token })', () => {
  it('calls the five operations, run.stats, run.prune and trace.put with typed inputs and outputs', async () => {
    const ledger = await startDirectoryLedger()
    const client = createLedgerClient(`${ledger.url}/`)
    expect(client.url).toBe(ledger.url)
    const begun = await client.begin({ agent: 'refund-agent', goal: 'Refund order 42', session_id: 'conv-1' })
    expect(begun.status).toBe('active')
    const put = await client.putTrace({ run_id: begun.run_id }, renderTrace(buildTrace('refund-agent', [{ tokens: { input_tokens: 1000, output_tokens: 0 } }])))
    expect(put).toMatchObject({ run_id: begun.run_id, turns: 1 })
    expect(await client.complete({ run_id: begun.run_id, status: 'completed' })).toMatchObject({ status: 'completed', recalled: -1 })
    expect(await client.grade({ session_id: 'conv-1', grade: 'pass' })).toMatchObject({ graded: 1, run_ids: [begun.run_id] })
    const got = await client.get(begun.run_id)
    expect([got.found, got.run?.grade, got.turns, got.cost_usd]).toEqual([true, 'pass', 1, 0.0025])
    expect(await client.list({ fields: ['run_id'] })).toEqual({ runs: [{ run_id: begun.run_id }], total: 1, next_cursor: null })
    const trends = await client.stats({ by: 'agent', bucket: 'week', since: '1w' })
    expect(trends.rows.map(({ key, runs, pass_rate, input_tokens, cost_usd }) => ({ key, runs, pass_rate, input_tokens, cost_usd }))).toEqual([
      { key: 'refund-agent', runs: 1, pass_rate: 1, input_tokens: 1000, cost_usd: 0.0025 },
    ])
    // The run is its agent's newest: kept, whatever its age.
    ledger.clock.advance(400 * 86_400)
    expect(await client.prune({ older_than: '90d', dry_run: true })).toEqual({
      before: new Date((ledger.clock.seconds - 90 * 86_400) * 1000).toISOString(),
      dry_run: true,
      removed: 0,
      kept: { active: 0, last: 1, baseline: 0, failed: 0 },
      partitions_dropped: 0,
    })
    // run.list by cursor: the page after the first.
    ledger.clock.advance(1)
    const second = await client.begin({ agent: 'refund-agent', goal: 'Refund order 43' })
    const first = await client.list({ fields: ['run_id'], limit: 1, order_by: 'started_asc' })
    expect([first.runs, typeof first.next_cursor]).toEqual([[{ run_id: begun.run_id }], 'string'])
    expect(await client.list({ fields: ['run_id'], limit: 1, order_by: 'started_asc', cursor: first.next_cursor! })).toEqual({
      runs: [{ run_id: second.run_id }],
      total: null,
      next_cursor: null,
    })
  })

  it('throws LedgerError with the status and error body of a refused call', async () => {
    const ledger = await startDirectoryLedger()
    const client = createLedgerClient(ledger.url)
    const error = await client.complete({ run_id: 'nope', status: 'completed' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LedgerError)
    expect(error).toMatchObject({
      name: 'LedgerError',
      operation: 'run.complete',
      status: 404,
      body: { error: 'run_not_found' },
      message: `run.complete: the ledger at ${ledger.url}/v1/run.complete answered 404 run_not_found: run.complete: no run "nope" in namespace "default" of org "${ledger.org}"; run.begin opens one, run.list shows the ones there are`,
    })
  })

  it('throws LedgerError with status null when the ledger cannot be reached', async () => {
    const ledger = await startDirectoryLedger()
    await ledger.server.close()
    const error = (await createLedgerClient(ledger.url)
      .list()
      .catch((e: unknown) => e)) as LedgerError
    expect([error.status, error.body, error.message]).toEqual([null, null, `run.list: could not reach the ledger at ${ledger.url}/v1/run.list (ECONNREFUSED)`])
  })
})
