/**
 * Conformance: results.put and results.list (our extension): a results file
 * kept once however often it is put, listed newest first by started_at, of a
 * branch or of all, at most `limit`, apart per namespace; another
 * results_version or a broken file refused with the ledger's 422.
 */
import { expect, it } from 'vitest'
import type { RunResults } from '../../../src/results/types.js'
import { T0, type StartLedger } from '../harness.js'
import { tokenFile, TOKENS } from './http-identity.js'

/** A results file of one run of a one-test suite on `branch`, started `at` seconds after T0. */
export function resultsOf(branch: string | null, at: number, passed = true): RunResults {
  return {
    results_version: 1,
    reagent_flow_version: '0.1.0',
    shard: at % 2 === 0 ? null : { index: 1, count: 2 },
    started_at: T0 + at,
    ended_at: T0 + at + 1.5,
    commit: `c${at}`,
    branch,
    tests: [
      {
        file: 'test/agent.test.ts',
        name: 'refunds order 42',
        line: 7,
        outcome: passed ? 'passed' : 'failed',
        duration_ms: 40,
        failure: passed ? null : 'expected the agent to call issue_refund',
        golden: 'none',
        runs: [{ name: 'refunds order 42', status: 'completed', trace: null, tokens: 1200, usd: 0.01, turns: 3, tool_calls: 2, duration_ms: 35 }],
      },
    ],
  }
}

const commitsOf = (body: { results: RunResults[] }): Array<string | null> => body.results.map((results) => results.commit)

export function resultsConformance(start: StartLedger): void {
  it('keeps the same results once however often they are put, and returns them as they were put', async () => {
    const ledger = await start()
    const first = await ledger.call<{ results_id: string; stored: boolean }>('results.put', { results: resultsOf('main', 1) })
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ results_id: expect.stringMatching(/^[0-9a-f]{64}$/), stored: true })
    expect(await ledger.call('results.put', { results: resultsOf('main', 1) })).toEqual({
      status: 200,
      body: { results_id: first.body.results_id, stored: false },
    })
    expect(await ledger.call('results.list', {})).toEqual({ status: 200, body: { results: [resultsOf('main', 1)] } })
  })

  it('lists newest first by started_at, 20 by default, at most limit, of one branch or ("", "*", "-") of every branch', async () => {
    const ledger = await start()
    for (const at of [3, 1, 25, 2]) expect((await ledger.call('results.put', { results: resultsOf('main', at) })).status).toBe(200)
    for (let at = 4; at < 24; at++) await ledger.call('results.put', { results: resultsOf('main', at) })
    await ledger.call('results.put', { results: resultsOf('feature/refunds', 30) })
    await ledger.call('results.put', { results: resultsOf(null, 40) })
    const list = async (query: Record<string, unknown>): Promise<Array<string | null>> => {
      const reply = await ledger.call<{ results: RunResults[] }>('results.list', query)
      expect(reply.status).toBe(200)
      return commitsOf(reply.body)
    }
    expect(await list({ branch: 'main', limit: 3 })).toEqual(['c25', 'c23', 'c22'])
    expect(await list({ branch: 'main' })).toEqual(Array.from({ length: 20 }, (_, i) => (i === 0 ? 'c25' : `c${24 - i}`)))
    expect(await list({ branch: 'main', limit: 500 })).toHaveLength(24)
    expect(await list({ branch: 'feature/refunds' })).toEqual(['c30'])
    expect(await list({ branch: 'release' })).toEqual([])
    for (const any of ['', '*', '-']) expect(await list({ branch: any, limit: 3 })).toEqual(['c40', 'c30', 'c25'])
    expect(await list({ limit: 0 })).toEqual([])
  })

  it('refuses results of another results_version and a broken results file (422), keeping nothing', async () => {
    const ledger = await start()
    expect(await ledger.call('results.put', { results: { ...resultsOf('main', 1), results_version: 2 } })).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message:
          'results.put: results has results_version 2; this reagent-flow reads results_version 1. Read it with the reagent-flow version that wrote it, or run the tests again with this one (rule: results_version)',
        field: 'results',
        rule: 'results_version',
      },
    })
    const { tests: _tests, ...noTests } = resultsOf('main', 2)
    expect(await ledger.call('results.put', { results: noTests })).toEqual({
      status: 422,
      body: {
        error: 'invalid_input',
        message:
          "results.put: results is not a valid results file: the top level must have required property 'tests'. Pass the file reagent-flow/vitest/reporter wrote (its results option), or run the tests again to write it (rule: schema)",
        field: 'results',
        rule: 'schema',
      },
    })
    expect(await ledger.call('results.put', {})).toEqual({
      status: 422,
      body: { error: 'invalid_input', message: 'results.put: results is required (rule: required)', field: 'results', rule: 'required' },
    })
    expect(await ledger.call('results.list', {})).toEqual({ status: 200, body: { results: [] } })
  })

  it('takes a results file over 1 MB (a large suite), gzip-compressed as the client sends it', async () => {
    const ledger = await start()
    const one = resultsOf('main', 1)
    const large = { ...one, tests: Array.from({ length: 4000 }, (_, i) => ({ ...one.tests[0]!, name: `refunds order ${i} ${'x'.repeat(200)}` })) }
    expect(JSON.stringify(large).length).toBeGreaterThan(1024 * 1024)
    expect((await ledger.call('results.put', { results: large }, { gzip: true })).body).toMatchObject({ stored: true })
    expect((await ledger.call<{ results: RunResults[] }>('results.list', {})).body.results[0]!.tests).toHaveLength(4000)
  })

  it("keeps each namespace's results apart, and refuses a namespace outside the token's (403)", async () => {
    const ledger = await start({ tokens: tokenFile() })
    expect((await ledger.call('results.put', { results: resultsOf('main', 1) }, { token: TOKENS.ci })).status).toBe(200)
    expect((await ledger.call('results.put', { results: resultsOf('main', 2) }, { token: TOKENS.prod })).status).toBe(200)
    expect(commitsOf((await ledger.call<{ results: RunResults[] }>('results.list', { branch: 'main' }, { token: TOKENS.ci })).body)).toEqual(['c1'])
    expect(commitsOf((await ledger.call<{ results: RunResults[] }>('results.list', { branch: 'main' }, { token: TOKENS.prod })).body)).toEqual(['c2'])
    // A token narrowed to an agent reads its namespace's results: results belong to the namespace, not to one agent.
    expect(commitsOf((await ledger.call<{ results: RunResults[] }>('results.list', {}, { token: TOKENS.refundBot })).body)).toEqual(['c2'])
    expect(await ledger.call('results.list', { namespace: 'prod' }, { token: TOKENS.ci })).toEqual({
      status: 403,
      body: {
        error: 'forbidden',
        message: 'results.list: namespace "prod" is outside this token\'s scope (ci may use namespace "ci" only)',
        field: 'namespace',
      },
    })
    expect((await ledger.call('results.put', { results: resultsOf('main', 3) })).status).toBe(401)
  })
}
