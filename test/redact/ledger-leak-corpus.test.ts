/**
 * The leak corpus planted in every free-text field of the run ledger's
 * operations (run.begin, run.complete, run.grade), on both stores: no planted
 * secret may be in what the store keeps (the directory's files, PostgreSQL's
 * rows) nor in what run.get, run.list and MCP's loom_run_get answer.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import pg from 'pg'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import type { JsonValue } from '../../src/trace/types.js'
import { POSTGRES_URL, postgresLedgers, startDirectoryLedger, type TestLedger } from '../ledger/harness.js'
import { tempDir } from '../helpers/temp-dir.js'
import { leaksIn, secretForms } from './corpus.js'

const forms = secretForms(7)
const textOf = (value: JsonValue): string => (typeof value === 'string' ? value : JSON.stringify(value))
/** Every form in one text: a field holding all of them. */
const allText = forms.map((form) => textOf(form.value)).join('\n')
const byName = Object.fromEntries(forms.map((form) => [form.name, form.value]))
const asKeys = Object.fromEntries(forms.map((form, i) => [textOf(form.value), i]))

/** Each operation with every free-text field planted; the served runs of all, and the MCP answer of one. */
async function plantAndServe(ledger: TestLedger): Promise<string> {
  const served: unknown[] = []
  for (const [i, metadata] of [byName, asKeys].entries()) {
    const runId = `planted-${i}`
    const begin = {
      agent: 'deployer',
      run_id: runId,
      session_id: 'sess-1',
      goal: allText,
      user_request: allText,
      expected_outcome: allText,
      environment: allText,
      model: allText,
      consumer: allText,
      role: allText,
      metadata,
    }
    expect((await ledger.call('run.begin', begin)).status).toBe(200)
    // Re-sent with the same secrets: still one run, nothing changed by the redacted text.
    expect((await ledger.call('run.begin', begin)).status).toBe(200)
    expect((await ledger.call('run.complete', { run_id: runId, status: 'completed', final_response: allText, metadata })).status).toBe(200)
    const grade = { run_id: runId, grade: 'fail', source: allText, reason: allText, ref: allText }
    expect((await ledger.call('run.grade', grade)).body).toMatchObject({ graded: 1 })
    // The same verdict again is the same grade: compared redacted to redacted.
    expect((await ledger.call('run.grade', grade)).body).toMatchObject({ graded: 0, unchanged: 1 })
    served.push((await ledger.call('run.get', { run_id: runId })).body)
  }
  served.push((await ledger.call('run.list', { limit: 10 })).body)
  const mcp = new Client({ name: 'leak-test', version: '1.0.0' })
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${ledger.url}/mcp`)))
  onTestFinished(() => mcp.close())
  served.push(await mcp.callTool({ name: 'loom_run_get', arguments: { run_id: 'planted-0' } }))
  served.push(await mcp.callTool({ name: 'loom_run_list', arguments: { limit: 10 } }))
  return JSON.stringify(served)
}

function filesUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n')
}

describe('the run ledger with the leak corpus in every caller field', () => {
  it('directory store: no planted secret in its files, in run.get, run.list or loom_run_get', async () => {
    const dir = tempDir()
    const ledger = await startDirectoryLedger({ dir })
    const served = await plantAndServe(ledger)
    expect(served).toContain('[REDACTED]')
    expect(leaksIn(served, forms)).toEqual([])
    expect(leaksIn(filesUnder(dir), forms)).toEqual([])
  })

  describe.skipIf(POSTGRES_URL === undefined)('PostgreSQL store', () => {
    const ledgers = postgresLedgers()
    afterAll(ledgers.drop)
    it('no planted secret in its rows, in run.get, run.list or loom_run_get', async () => {
      const ledger = await ledgers.start()
      const served = await plantAndServe(ledger)
      expect(served).toContain('[REDACTED]')
      expect(leaksIn(served, forms)).toEqual([])
      const client = new pg.Client({ connectionString: await ledgers.url() })
      await client.connect()
      const { rows } = await client.query<{ row: string }>('SELECT row_to_json(r)::text AS row FROM reagent_ledger_runs r WHERE org = $1', [ledger.org])
      await client.end()
      expect(rows).toHaveLength(2)
      expect(leaksIn(rows.map((r) => r.row).join('\n'), forms)).toEqual([])
    })
  })
})
