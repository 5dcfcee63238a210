import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { describe, expect, it, onTestFinished } from 'vitest'
import { DirectoryStore } from '../../src/ledger/directory/directory-store.js'
import { singleUser } from '../../src/ledger/identity.js'
import { createMcpServer } from '../../src/ledger/mcp-server.js'
import { LedgerService } from '../../src/ledger/service.js'
import { readTokenFile } from '../../src/ledger/tokens.js'
import { CLI } from '../cli/run-cli.js'
import { tempDir } from '../helpers/temp-dir.js'
import { startDirectoryLedger, T0, TestClock } from './harness.js'

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' })
  await client.connect(transport)
  onTestFinished(() => client.close())
  return client
}

type ToolReply = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ type: string; text: string }> }

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolReply> {
  return (await client.callTool({ name, arguments: args })) as ToolReply
}

async function inMemoryClient(): Promise<{ client: Client; clock: TestClock }> {
  const store = DirectoryStore.open({ dir: tempDir(), org: 'local', namespace: 'default', watch: false })
  onTestFinished(() => store.close())
  const clock = new TestClock()
  const server = createMcpServer(new LedgerService(store, { now: clock.now }), () => singleUser(), '0.0.0-test')
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  return { client: await connect(clientSide), clock }
}

describe('the MCP tools', () => {
  it("are the five run operations and run.stats, with the operations' input and output schemas; org and namespace are filled, not required", async () => {
    const { client } = await inMemoryClient()
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['loom_run_begin', 'loom_run_complete', 'loom_run_get', 'loom_run_grade', 'loom_run_list', 'loom_run_stats'])
    const begin = tools[0]!
    expect(begin.inputSchema.required).toEqual(['agent', 'goal'])
    expect(Object.keys(begin.inputSchema.properties!)).toEqual([
      'org',
      'namespace',
      'agent',
      'user_id',
      'session_id',
      'run_id',
      'goal',
      'user_request',
      'expected_outcome',
      'environment',
      'model',
      'consumer',
      'role',
      'metadata',
      'budget_usd',
      'budget_seconds',
      'idempotency_key',
    ])
    expect(begin.outputSchema?.required).toEqual(['run_id', 'status', 'started_at', 'next'])
    expect(tools[4]!.annotations).toEqual({ readOnlyHint: true })
    const stats = tools[5]!
    expect([stats.inputSchema.required, Object.keys(stats.inputSchema.properties!), stats.annotations]).toEqual([
      [],
      ['org', 'namespace', 'by', 'bucket', 'since', 'agent'],
      { readOnlyHint: true },
    ])
    expect(stats.outputSchema?.required).toEqual(['by', 'bucket', 'since', 'rows'])
  })

  it('answer as the HTTP operations do, in structured content and as JSON text', async () => {
    const { client, clock } = await inMemoryClient()
    const begun = await callTool(client, 'loom_run_begin', { agent: 'coder', goal: 'Fix the flaky test', run_id: 'r1' })
    expect(begun.structuredContent).toMatchObject({ run_id: 'r1', status: 'active', started_at: '2027-01-15T08:00:00.000Z' })
    expect(JSON.parse(begun.content[0]!.text)).toEqual(begun.structuredContent)
    clock.advance(3)
    expect((await callTool(client, 'loom_run_complete', { run_id: 'r1', status: 'completed', final_response: 'Fixed.' })).structuredContent).toMatchObject({
      status: 'completed',
      duration_ms: 3000,
      recalled: -1,
    })
    expect((await callTool(client, 'loom_run_grade', { run_id: 'r1', grade: 'pass', source: 'ci' })).structuredContent).toMatchObject({ graded: 1 })
    expect((await callTool(client, 'loom_run_get', { run_id: 'r1' })).structuredContent).toMatchObject({
      found: true,
      run: { final_response: 'Fixed.', grade: 'pass', started_at: new Date(T0 * 1000).toISOString() },
      elapsed_seconds: 3,
    })
    expect((await callTool(client, 'loom_run_list', { fields: ['run_id', 'status'] })).structuredContent).toEqual({
      runs: [{ run_id: 'r1', status: 'completed' }],
      total: 1,
      next_cursor: null,
    })
  })

  it('return a refused call as an error result whose text is the error body', async () => {
    const { client } = await inMemoryClient()
    await callTool(client, 'loom_run_begin', { agent: 'coder', goal: 'g', run_id: 'r1' })
    await callTool(client, 'loom_run_complete', { run_id: 'r1', status: 'completed' })
    const again = await callTool(client, 'loom_run_complete', { run_id: 'r1', status: 'failed' })
    expect(again.isError).toBe(true)
    expect(JSON.parse(again.content[0]!.text)).toEqual({
      error: 'run_closed',
      message: 'run.complete: run "r1" is already completed at 2027-01-15T08:00:00.000Z; a run is completed exactly once, and this call changed nothing',
    })
    const bad = await callTool(client, 'loom_run_list', { limit: 'ten' })
    expect(JSON.parse(bad.content[0]!.text)).toEqual({
      error: 'invalid_input',
      message: 'run.list: limit must be integer (rule: type)',
      field: 'limit',
      rule: 'type',
    })
  })

  it('run over stdio: `reagent-flow mcp` opens the trace directory as its store', async () => {
    const dir = tempDir()
    const client = await connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--dir', dir, '--org', 'acme'], stderr: 'pipe' }))
    expect((await client.listTools()).tools).toHaveLength(6)
    const begun = await callTool(client, 'loom_run_begin', { agent: 'coder', goal: 'Refactor the parser' })
    expect(begun.structuredContent).toMatchObject({ status: 'active' })
    expect((await callTool(client, 'loom_run_list', { fields: ['goal'] })).structuredContent).toEqual({
      runs: [{ goal: 'Refactor the parser' }],
      total: 1,
      next_cursor: null,
    })
    const trends = (await callTool(client, 'loom_run_stats', { bucket: 'week' })).structuredContent as { rows: Array<Record<string, unknown>> }
    expect(trends.rows.map((row) => [row.key, row.runs, row.closed, row.pass_rate])).toEqual([['coder', 1, 0, null]])
    expect((await callTool(client, 'loom_run_list', { org: 'other' })).structuredContent).toEqual({ runs: [], total: 0, next_cursor: null })
    // Paged by cursor as over HTTP.
    await callTool(client, 'loom_run_begin', { agent: 'coder', goal: 'Write the tests' })
    type Page = { runs: Array<{ goal: string }>; total: number | null; next_cursor: string | null }
    const first = (await callTool(client, 'loom_run_list', { fields: ['goal'], limit: 1 })).structuredContent as Page
    const next = (await callTool(client, 'loom_run_list', { fields: ['goal'], limit: 1, cursor: first.next_cursor })).structuredContent as Page
    expect([...first.runs, ...next.runs].map((run) => run.goal).sort()).toEqual(['Refactor the parser', 'Write the tests'])
    expect([first.total, next.total, next.next_cursor]).toEqual([2, null, null])
  })

  it("run over streamable HTTP at /mcp, behind the server's tokens", async () => {
    const file = join(tempDir(), 'tokens.json')
    writeFileSync(file, JSON.stringify({ tokens: [{ name: 'agent', token: 'agent-token-0123456789', org: 'acme', namespace: 'agents', agent: 'coder' }] }))
    const ledger = await startDirectoryLedger({ tokens: readTokenFile(file) })
    const url = new URL(`${ledger.url}/mcp`)
    const client = await connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer agent-token-0123456789' } } }))
    const begun = await callTool(client, 'loom_run_begin', { goal: 'Write the docs' })
    expect(begun.structuredContent).toMatchObject({ status: 'active' })
    const runId = begun.structuredContent!.run_id as string
    expect((await ledger.call('run.get', { run_id: runId }, { token: 'agent-token-0123456789' })).body).toMatchObject({
      run: { agent: 'coder', goal: 'Write the docs' },
    })
    const denied = await callTool(client, 'loom_run_list', { namespace: 'elsewhere' })
    expect(JSON.parse(denied.content[0]!.text)).toMatchObject({ error: 'forbidden' })
    await expect(connect(new StreamableHTTPClientTransport(url))).rejects.toThrow(/"error":"unauthorized"/)
    const get = await fetch(url)
    expect([get.status, get.headers.get('allow')]).toEqual([401, null])
  })
})
