import { describe, expect, it, onTestFinished } from 'vitest'
import { DirectoryStore } from '../../src/ledger/directory/directory-store.js'
import { startLedgerServer } from '../../src/ledger/ledger-server.js'
import { tempDir } from '../helpers/temp-dir.js'

/** The value of a metric line `name value` in a Prometheus text page. */
function metric(page: string, name: string): number {
  const line = page.split('\n').find((text) => text.startsWith(`${name} `))
  if (line === undefined) throw new Error(`no ${name} in /metrics`)
  return Number(line.slice(name.length + 1))
}

describe("the ledger's write queue", () => {
  it('answers a write that finds the queue full 503 with Retry-After, writes it nowhere, and counts batches, their sizes and the refused writes', async () => {
    const dir = tempDir('reagent-ledger-')
    const store = DirectoryStore.open({ dir, org: 'acme', namespace: 'ci', writeQueue: 4, watch: false })
    const server = await startLedgerServer({ store, port: 0, org: 'acme', namespace: 'ci', log: () => {} })
    onTestFinished(() => server.close())
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const response = await fetch(`${server.url}/v1/run.begin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ agent: 'a', goal: 'g', run_id: `run-${i}` }),
        })
        return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> }
      }),
    )
    const refused = answers.filter((answer) => answer.status === 503)
    const accepted = answers.filter((answer) => answer.status === 200)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.length + accepted.length).toBe(40)
    for (const answer of refused) {
      expect(answer).toEqual({
        status: 503,
        retryAfter: '1',
        body: {
          error: 'unavailable',
          message: `run.begin: the ledger's store (${dir}) is busy: its write queue is full (it holds 4 writes; serve --write-queue sets how many); try again in a moment`,
        },
      })
    }
    const listed = (await (await fetch(`${server.url}/v1/run.list`, { method: 'POST', body: '{}' })).json()) as { total: number }
    expect(listed.total).toBe(accepted.length)
    const page = await (await fetch(`${server.url}/metrics`)).text()
    expect(metric(page, 'reagent_ledger_write_rejected_total')).toBe(refused.length)
    expect(metric(page, 'reagent_ledger_write_batch_size_sum')).toBe(accepted.length)
    // Writes that arrive together go together: fewer batches than writes.
    expect(metric(page, 'reagent_ledger_write_batch_size_count')).toBeLessThan(accepted.length)
    expect(metric(page, 'reagent_ledger_write_queue_depth')).toBe(0)
  })
})
