/**
 * Conformance: projects and roles (decision 085). One server holds the
 * tokens of two teams (two orgs, each with a namespace of the same name);
 * through every operation, HTTP and MCP, a token never sees or changes the
 * other project's runs, traces, results or trends. A read token may only
 * look, a write token may not prune, each refusal a 403 naming the
 * operation, the token and its role.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect, it, onTestFinished } from 'vitest'
import { readTokenFile } from '../../../src/ledger/tokens.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { T0, type StartLedger, type TestLedger } from '../harness.js'
import { pricedTrace } from './get-grade.js'
import { resultsOf } from './results.js'

const TOKENS = {
  aReader: 'team-a-reader-0123456789abcdef',
  aWriter: 'team-a-writer-0123456789abcdef',
  aAdmin: 'team-a-admin-0123456789abcdef',
  bWriter: 'team-b-writer-0123456789abcdef',
  bAdmin: 'team-b-admin-0123456789abcdef',
}

let teams = 0

/** Two teams' projects, orgs of the test's own (tests may share a database), both with the namespace `agents`. */
function twoTeams(): { a: string; b: string; tokens: ReturnType<typeof readTokenFile> } {
  const n = ++teams
  const a = `teamA${process.pid}x${n}`
  const b = `teamB${process.pid}x${n}`
  const file = join(tempDir(), 'tokens.json')
  writeFileSync(
    file,
    JSON.stringify({
      tokens: [
        { name: 'a-reader', token: TOKENS.aReader, org: a, namespace: 'agents', role: 'read' },
        { name: 'a-writer', token: TOKENS.aWriter, org: a, namespace: 'agents', role: 'write' },
        { name: 'a-admin', token: TOKENS.aAdmin, org: a, namespace: 'agents', role: 'admin' },
        // No role: write, as every token file written before roles existed.
        { name: 'b-writer', token: TOKENS.bWriter, org: b, namespace: 'agents' },
        { name: 'b-admin', token: TOKENS.bAdmin, org: b, namespace: 'agents', role: 'admin' },
      ],
    }),
  )
  return { a, b, tokens: readTokenFile(file) }
}

const DAY = 86_400

/** Each team: an old run and a new one, with the same ids in both projects, a trace on the new one, and a results file. */
async function seedTeam(ledger: TestLedger, token: string, goal: string, branch: string): Promise<void> {
  for (const [id, at] of [
    ['old', T0 - 200 * DAY],
    ['new', T0],
  ] as const) {
    ledger.clock.seconds = at
    expect((await ledger.call('run.begin', { run_id: id, agent: 'refund', goal }, { token })).status).toBe(200)
    expect((await ledger.call('run.complete', { run_id: id, status: 'completed' }, { token })).status).toBe(200)
  }
  expect((await ledger.call('trace.put', { run_id: 'new', trace: pricedTrace() }, { token, gzip: true })).status).toBe(200)
  expect((await ledger.call('results.put', { results: resultsOf(branch, 1) }, { token })).status).toBe(200)
  ledger.clock.seconds = T0 + 60
}

const forbidden = (operation: string, token: string, role: string, needed: string) => ({
  status: 403,
  body: {
    error: 'forbidden',
    message: `${operation}: needs the role ${needed}, and the token "${token}" has the role ${role}; use a token whose entry in the token file has "role": "${needed}"`,
  },
})

export function projectsConformance(start: StartLedger): void {
  it("keeps each project's runs, traces, results and trends to its own tokens, through every operation", async () => {
    const { a, b, tokens } = twoTeams()
    const ledger = await start({ tokens, org: a, namespace: 'agents' })
    await seedTeam(ledger, TOKENS.aWriter, 'team A goal', 'main')
    await seedTeam(ledger, TOKENS.bWriter, 'team B goal', 'release')
    const as = (token: string) => ({ token })

    // Reads: each token sees its own project's run under the shared id, never the other's.
    for (const [token, goal] of [
      [TOKENS.aReader, 'team A goal'],
      [TOKENS.bWriter, 'team B goal'],
    ] as const) {
      expect((await ledger.call('run.get', { run_id: 'new' }, as(token))).body).toMatchObject({ found: true, run: { goal } })
      const list = await ledger.call<{ runs: Array<{ goal: string }>; total: number }>('run.list', {}, as(token))
      expect([list.body.total, ...list.body.runs.map((run) => run.goal)]).toEqual([2, goal, goal])
      const stats = await ledger.call<{ rows: Array<{ runs: number }> }>('run.stats', { since: '1w' }, as(token))
      expect(stats.body.rows.map((row) => row.runs)).toEqual([1])
      expect((await ledger.call('trace.get', { run_id: 'new' }, as(token))).status).toBe(200)
    }
    const branches = async (token: string) =>
      (await ledger.call<{ results: Array<{ branch: string }> }>('results.list', {}, as(token))).body.results.map((results) => results.branch)
    expect(await branches(TOKENS.aReader)).toEqual(['main'])
    expect(await branches(TOKENS.bWriter)).toEqual(['release'])

    // Naming the other project is refused, whatever the operation.
    for (const operation of [
      'run.get',
      'run.list',
      'run.stats',
      'trace.get',
      'results.list',
      'run.begin',
      'run.complete',
      'run.grade',
      'trace.put',
      'results.put',
      'run.prune',
    ]) {
      const reply = await ledger.call(
        operation,
        { org: b, run_id: 'new', agent: 'refund', goal: 'g', status: 'completed', grade: 'pass', older_than: '1d' },
        as(TOKENS.aAdmin),
      )
      expect(reply).toEqual({
        status: 403,
        body: { error: 'forbidden', message: `${operation}: org "${b}" is outside this token's scope (a-admin may use org "${a}" only)`, field: 'org' },
      })
    }

    // Writes by B change only B's run of the shared id.
    expect((await ledger.call('run.grade', { run_id: 'new', grade: 'fail' }, as(TOKENS.bWriter))).status).toBe(200)
    expect((await ledger.call('trace.put', { run_id: 'new', trace: { ...pricedTrace(), name: 'b-trace' } }, as(TOKENS.bWriter))).status).toBe(200)
    expect((await ledger.call('run.get', { run_id: 'new' }, as(TOKENS.aReader))).body).toMatchObject({ run: { grade: null } })
    expect((await ledger.call<{ trace: { name: string } }>('trace.get', { run_id: 'new' }, as(TOKENS.aReader))).body.trace.name).toBe(pricedTrace().name)
    ledger.clock.seconds = T0 + 120
    expect((await ledger.call('run.begin', { run_id: 'b-only', agent: 'refund', goal: 'g' }, as(TOKENS.bWriter))).status).toBe(200)
    for (const [operation, body] of [
      ['run.get', { run_id: 'b-only' }],
      ['run.complete', { run_id: 'b-only', status: 'completed' }],
      ['run.grade', { run_id: 'b-only', grade: 'pass' }],
      ['trace.put', { run_id: 'b-only', trace: pricedTrace() }],
      ['trace.get', { run_id: 'b-only' }],
    ] as const) {
      const reply = await ledger.call(operation, body, as(TOKENS.aAdmin))
      if (operation === 'run.get') expect(reply.body).toMatchObject({ found: false })
      else expect([reply.status, (reply.body as { error: string }).error]).toEqual([404, 'run_not_found'])
    }
    expect((await ledger.call('run.get', { run_id: 'b-only' }, as(TOKENS.bWriter))).body).toMatchObject({ found: true, run: { status: 'active' } })

    // A's prune removes A's old run only.
    expect((await ledger.call('run.prune', { older_than: '90d' }, as(TOKENS.aAdmin))).body).toMatchObject({ removed: 1 })
    expect((await ledger.call('run.get', { run_id: 'old' }, as(TOKENS.aReader))).body).toMatchObject({ found: false })
    expect((await ledger.call('run.get', { run_id: 'old' }, as(TOKENS.bWriter))).body).toMatchObject({ found: true })
  })

  it('lets a read token look only, a write token record but not prune, an admin token do all (403 naming the operation, the token and its role)', async () => {
    const { a, tokens } = twoTeams()
    const ledger = await start({ tokens, org: a, namespace: 'agents' })
    await seedTeam(ledger, TOKENS.aWriter, 'goal', 'main')
    const writes: Array<[string, Record<string, unknown>]> = [
      ['run.begin', { agent: 'refund', goal: 'g' }],
      ['run.complete', { run_id: 'new', status: 'completed' }],
      ['run.grade', { run_id: 'new', grade: 'pass' }],
      ['trace.put', { run_id: 'new', trace: pricedTrace() }],
      ['results.put', { results: resultsOf('main', 2) }],
    ]
    const reads: Array<[string, Record<string, unknown>]> = [
      ['run.get', { run_id: 'new' }],
      ['run.list', {}],
      ['run.stats', {}],
      ['trace.get', { run_id: 'new' }],
      ['results.list', {}],
    ]
    for (const [operation, body] of reads) expect((await ledger.call(operation, body, { token: TOKENS.aReader })).status).toBe(200)
    for (const [operation, body] of writes)
      expect(await ledger.call(operation, body, { token: TOKENS.aReader })).toEqual(forbidden(operation, 'a-reader', 'read', 'write'))
    expect(await ledger.call('run.prune', { older_than: '90d' }, { token: TOKENS.aReader })).toEqual(forbidden('run.prune', 'a-reader', 'read', 'admin'))
    expect(await ledger.call('run.prune', { older_than: '90d' }, { token: TOKENS.aWriter })).toEqual(forbidden('run.prune', 'a-writer', 'write', 'admin'))
    // The refusals changed nothing; the writer's and the admin's calls go through.
    expect((await ledger.call('run.get', { run_id: 'new' }, { token: TOKENS.aReader })).body).toMatchObject({ run: { grade: null } })
    expect((await ledger.call('run.grade', { run_id: 'new', grade: 'pass' }, { token: TOKENS.aWriter })).status).toBe(200)
    expect((await ledger.call('run.prune', { older_than: '90d', dry_run: true }, { token: TOKENS.aAdmin })).body).toMatchObject({ removed: 1 })

    // MCP answers alike: the token's role and project hold for the tools.
    const mcp = async (token: string): Promise<Client> => {
      const client = new Client({ name: 'test-agent', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${ledger.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
      onTestFinished(() => client.close())
      return client
    }
    const reader = await mcp(TOKENS.aReader)
    const refused = (await reader.callTool({ name: 'loom_run_begin', arguments: { agent: 'refund', goal: 'g' } })) as {
      isError?: boolean
      content: Array<{ text: string }>
    }
    expect([refused.isError, JSON.parse(refused.content[0]!.text)]).toEqual([true, forbidden('run.begin', 'a-reader', 'read', 'write').body])
    const seen = (await reader.callTool({ name: 'loom_run_list', arguments: {} })) as unknown as { structuredContent: { total: number } }
    expect(seen.structuredContent.total).toBe(2)
    const other = await mcp(TOKENS.bWriter)
    const none = (await other.callTool({ name: 'loom_run_get', arguments: { run_id: 'old' } })) as unknown as { structuredContent: { found: boolean } }
    expect(none.structuredContent.found).toBe(false)
  })
}
