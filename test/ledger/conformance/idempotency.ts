/** Idempotency keys of run.begin and run.complete (HTTP header `Idempotency-Key`, or the body's `idempotency_key`): conformance on both stores. */
import { expect, it } from 'vitest'
import { tempDir } from '../../helpers/temp-dir.js'
import type { StartLedger, TestLedger } from '../harness.js'

const keyed = (key: string) => ({ headers: { 'idempotency-key': key } })

async function total(ledger: TestLedger): Promise<unknown> {
  return (await ledger.call('run.list', {})).body.total
}

export function idempotencyConformance(start: StartLedger): void {
  it('run.begin sent again with its Idempotency-Key answers what the first answered (the run_id it minted) and opens no second run', async () => {
    const ledger = await start()
    const first = await ledger.call('run.begin', { agent: 'a', goal: 'g' }, keyed('begin-1'))
    expect(first.status).toBe(200)
    ledger.clock.advance(5)
    const again = await ledger.call('run.begin', { agent: 'a', goal: 'g' }, keyed('begin-1'))
    expect(again).toEqual(first)
    expect(await total(ledger)).toBe(1)
    // Another key is another call: a second run.
    const other = await ledger.call('run.begin', { agent: 'a', goal: 'g' }, keyed('begin-2'))
    expect(other.body.run_id).not.toBe(first.body.run_id)
    expect(await total(ledger)).toBe(2)
  })

  it('run.begin sent five times at once with one key opens one run, and all five are answered alike', async () => {
    const ledger = await start()
    const answers = await Promise.all(Array.from({ length: 5 }, () => ledger.call('run.begin', { agent: 'a', goal: 'g' }, keyed('at-once'))))
    for (const answer of answers) expect(answer).toEqual(answers[0])
    expect(answers[0]!.status).toBe(200)
    expect(await total(ledger)).toBe(1)
  })

  it('run.complete sent again with its key answers what the first answered, not run_closed, and closes the run once', async () => {
    const ledger = await start()
    const runId = (await ledger.call('run.begin', { agent: 'a', goal: 'g' })).body.run_id
    ledger.clock.advance(2)
    const first = await ledger.call('run.complete', { run_id: runId, status: 'completed' }, keyed('complete-1'))
    expect(first.body).toMatchObject({ run_id: runId, status: 'completed', duration_ms: 2000 })
    ledger.clock.advance(60)
    expect(await ledger.call('run.complete', { run_id: runId, status: 'completed' }, keyed('complete-1'))).toEqual(first)
    // Without the key, the same call is a second complete: refused.
    expect((await ledger.call('run.complete', { run_id: runId, status: 'completed' })).status).toBe(409)
    expect((await ledger.call('run.get', { run_id: runId })).body).toMatchObject({ run: { status: 'completed', duration_ms: 2000 } })
  })

  it('takes the key as the body field idempotency_key (MCP clients), the same key as the header; a header and a body that differ are a 422', async () => {
    const ledger = await start()
    const first = await ledger.call('run.begin', { agent: 'a', goal: 'g', idempotency_key: 'k-1' })
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g' }, keyed('k-1'))).toEqual(first)
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g', idempotency_key: 'k-1' }, keyed('k-2'))).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message: "run.begin: the Idempotency-Key header and the body's idempotency_key differ; send the key once (rule: conflict)",
        field: 'idempotency_key',
        rule: 'conflict',
      },
    })
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g' }, keyed('has space'))).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message: 'run.begin: the Idempotency-Key header must be 1 to 255 visible ASCII characters (rule: pattern)',
        field: 'idempotency_key',
        rule: 'pattern',
      },
    })
    expect(await total(ledger)).toBe(1)
  })

  it('refuses a key sent again with another call (422 naming idempotency_key, rule reused), and writes nothing', async () => {
    const ledger = await start()
    await ledger.call('run.begin', { agent: 'a', goal: 'refund order 42' }, keyed('k'))
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'refund order 43' }, keyed('k'))).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message:
          'run.begin: the idempotency key "k" was used at 2027-01-15T08:00:00.000Z for another run.begin call; a key names one call: send a new key with a new call (rule: reused)',
        field: 'idempotency_key',
        rule: 'reused',
      },
    })
    expect(await total(ledger)).toBe(1)
  })

  it('keeps no key for a refused call: sent again, it is tried again', async () => {
    const ledger = await start()
    const missing = await ledger.call('run.complete', { run_id: 'not-yet', status: 'failed' }, keyed('c'))
    expect(missing.status).toBe(404)
    await ledger.call('run.begin', { agent: 'a', goal: 'g', run_id: 'not-yet' })
    expect((await ledger.call('run.complete', { run_id: 'not-yet', status: 'failed' }, keyed('c'))).body).toMatchObject({ run_id: 'not-yet', status: 'failed' })
  })

  it('keeps keys a day, across a restart of the server: after that the same key is a new call', async () => {
    const dir = tempDir('reagent-ledger-')
    const first = await start({ dir })
    const begun = await first.call('run.begin', { agent: 'a', goal: 'g' }, keyed('day'))
    await first.server.close()
    const second = await start({ dir, org: first.org })
    second.clock.advance(24 * 60 * 60 - 1)
    expect(await second.call('run.begin', { agent: 'a', goal: 'g' }, keyed('day'))).toEqual(begun)
    second.clock.advance(1)
    const later = await second.call('run.begin', { agent: 'a', goal: 'g' }, keyed('day'))
    expect(later.status).toBe(200)
    expect(later.body.run_id).not.toBe(begun.body.run_id)
    expect(await total(second)).toBe(2)
  })
}
