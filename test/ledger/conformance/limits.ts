/**
 * Conformance: what the ledger accepts it reads back after a restart, and
 * two run ids never share a place in the store. A body it could not keep is
 * a 422 naming the field, never a 200 that vanishes nor a 500.
 */
import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { buildTrace } from '../../helpers/trace-builder.js'
import type { Reply, StartLedger, TestLedger } from '../harness.js'

/** The same store again, as a new server process would open it (the first one closed). */
async function restarted(start: StartLedger, ledger: TestLedger): Promise<TestLedger> {
  await ledger.server.close()
  return start({ org: ledger.org, namespace: ledger.namespace, ...(ledger.store.kind === 'directory' ? { dir: ledger.store.location } : {}) })
}

/** POST with the body as raw JSON text (`1e400`, escapes JSON.stringify would not write). */
async function callRaw(ledger: TestLedger, operation: string, text: string): Promise<Reply> {
  const response = await fetch(`${ledger.url}/v1/${operation}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** Objects nested `levels` deep: nest(1) is `{}`, nest(2) `{"a":{}}`. */
function nest(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {}
  for (let i = 1; i < levels; i++) value = { a: value }
  return value
}

const invalid = (message: string, field: string, rule: string) => ({ status: 422, body: { error: 'invalid_input', message, field, rule } })

export function limitsConformance(start: StartLedger): void {
  it('keeps a run with an id too long for a file name apart from the run whose id is that name hashed, across a restart', async () => {
    const ledger = await start()
    const long = 'x'.repeat(200)
    const twins = [long, `h-${createHash('sha256').update(long).digest('hex')}`]
    for (const runId of twins) expect((await ledger.call('run.begin', { agent: 'a', goal: `goal of ${runId.slice(0, 8)}`, run_id: runId })).status).toBe(200)
    const again = await restarted(start, ledger)
    for (const runId of twins) {
      expect((await again.call('run.get', { run_id: runId })).body).toMatchObject({ found: true, run: { run_id: runId, goal: `goal of ${runId.slice(0, 8)}` } })
    }
    expect((await again.call('run.list', {})).body).toMatchObject({ total: 2 })
  })

  it('refuses lone surrogates in ids, text and metadata keys (422 naming the field), so \\ud800 and \\udfff are never one run', async () => {
    const ledger = await start()
    const lone = (field: string, what = 'holds') =>
      invalid(
        `run.begin: ${field} ${what} a lone surrogate (an unpaired \\ud800-\\udfff escape): send well-formed Unicode text (rule: unicode)`,
        field,
        'unicode',
      )
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g', run_id: 'run-\ud800' })).toEqual(lone('run_id'))
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g', run_id: 'run-\udfff' })).toEqual(lone('run_id'))
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g\udfff' })).toEqual(lone('goal'))
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g', metadata: { notes: ['ok', { 'k\ud800': 1 }] } })).toEqual(
      lone('metadata.notes[1]["k\\ud800"]', 'has a key with'),
    )
    // A surrogate pair is a character like any other.
    expect((await ledger.call('run.begin', { agent: 'a', goal: 'g \ud83d\ude00', run_id: 'run-\ud83d\ude00' })).status).toBe(200)
    expect((await ledger.call('run.list', {})).body).toMatchObject({ total: 1 })
  })

  it('refuses NUL characters and numbers JSON cannot hold (1e400), and keeps 1e300 budgets and metadata as sent, across a restart', async () => {
    const ledger = await start()
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g\u0000' })).toEqual(
      invalid('run.begin: goal holds a NUL character (\\u0000), which the ledger cannot store (rule: nul)', 'goal', 'nul'),
    )
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g', metadata: { note: 'a\u0000b' } })).toEqual(
      invalid('run.begin: metadata.note holds a NUL character (\\u0000), which the ledger cannot store (rule: nul)', 'metadata.note', 'nul'),
    )
    expect(await callRaw(ledger, 'run.begin', '{"agent":"a","goal":"g","session_id":"s","budget_usd":1e400}')).toEqual(
      invalid('run.begin: budget_usd must be a finite number (JSON has no Infinity) (rule: finite)', 'budget_usd', 'finite'),
    )
    expect(await callRaw(ledger, 'run.begin', '{"agent":"a","goal":"g","metadata":{"n":[-1e400]}}')).toEqual(
      invalid('run.begin: metadata.n[0] must be a finite number (JSON has no Infinity) (rule: finite)', 'metadata.n[0]', 'finite'),
    )
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g', budget_seconds: 1e300 })).toEqual(
      invalid('run.begin: budget_seconds must be <= 9007199254740991 (rule: maximum)', 'budget_seconds', 'maximum'),
    )
    const begun = await ledger.call<{ run_id: string }>('run.begin', {
      agent: 'a',
      goal: 'g',
      session_id: 's',
      budget_usd: 1e300,
      metadata: { big: 1e300, tiny: 5e-324 },
    })
    expect(begun.status).toBe(200)
    const again = await restarted(start, ledger)
    expect((await again.call('run.get', { run_id: begun.body.run_id })).body).toMatchObject({
      found: true,
      run: { budget_usd: 1e300, metadata: { big: 1e300, tiny: 5e-324 } },
      over_budget: [],
    })
    expect((await again.call('run.complete', { run_id: begun.body.run_id, status: 'completed', duration_ms: 2 ** 53 })).body).toMatchObject({
      error: 'invalid_input',
      field: 'duration_ms',
      rule: 'maximum',
    })
  })

  it('keeps metadata nested 64 levels across a restart, and refuses deeper (1,000 and 100,000 levels; a trace 100,000 levels deep) with a 422 naming the field', async () => {
    const ledger = await start()
    const kept = await ledger.call<{ run_id: string }>('run.begin', { agent: 'a', goal: 'g', metadata: nest(64) })
    expect(kept.status).toBe(200)
    const refused = invalid(
      'run.begin: metadata nests deeper than 64 levels (at metadata.a.a.a.a.a.a.a…); the ledger keeps values at most 64 levels deep (rule: depth)',
      'metadata',
      'depth',
    )
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g', metadata: nest(65) })).toEqual(refused)
    expect(await ledger.call('run.begin', { agent: 'a', goal: 'g', metadata: nest(1000) })).toEqual(refused)
    // Written as text: JSON.stringify itself overflows this deep.
    const deep = `${'{"a":'.repeat(100_000)}{}${'}'.repeat(100_000)}`
    expect(await callRaw(ledger, 'run.begin', `{"agent":"a","goal":"g","metadata":${deep}}`)).toEqual(refused)
    expect(await callRaw(ledger, 'run.complete', `{"run_id":"${kept.body.run_id}","status":"completed","metadata":${deep}}`)).toMatchObject({
      status: 422,
      body: { field: 'metadata', rule: 'depth' },
    })
    // trace.put takes traces as deep as every trace reader does (1,000 levels), and no deeper.
    expect(await callRaw(ledger, 'trace.put', `{"run_id":"${kept.body.run_id}","trace":${deep}}`)).toEqual(
      invalid(
        'trace.put: trace nests deeper than 1000 levels (at trace.a.a.a.a.a.a.a…); the ledger keeps values at most 1000 levels deep (rule: depth)',
        'trace',
        'depth',
      ),
    )
    const again = await restarted(start, ledger)
    expect((await again.call('run.get', { run_id: kept.body.run_id })).body).toMatchObject({ found: true, run: { metadata: nest(64) } })
  })

  it('keeps a trace holding NUL characters (in a text and a model name) as sent, and reads it back after a restart', async () => {
    const ledger = await start()
    const runId = (await ledger.call<{ run_id: string }>('run.begin', { agent: 'a', goal: 'g' })).body.run_id
    const trace = buildTrace('a', [
      { model: 'gpt-4o\u0000', text: 'binary \u0000 output', tokens: { input_tokens: 10, output_tokens: 1 } },
      { model: 'gpt-4o', text: 'ok', tokens: { input_tokens: 1000, output_tokens: 100 } },
    ])
    expect((await ledger.call('trace.put', { run_id: runId, trace })).status).toBe(200)
    const again = await restarted(start, ledger)
    expect((await again.call('run.get', { run_id: runId })).body).toMatchObject({ found: true, turns: 2, unpriced_turns: 1, cost_usd: 0.0035 })
  })
}
