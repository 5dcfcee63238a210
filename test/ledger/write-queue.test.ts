import { execFileSync } from 'node:child_process'
import { closeSync, openSync, readdirSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { checkedInput } from '../../src/ledger/validate-input.js'
import { DirectoryStore } from '../../src/ledger/directory/directory-store.js'
import { PostgresStore } from '../../src/ledger/postgres/postgres-store.js'
import type { LedgerStore } from '../../src/ledger/store.js'
import type { ListQuery } from '../../src/ledger/list-query.js'
import { createDatabase, POSTGRES_URL } from './harness.js'
import { startLedgerServer } from '../../src/ledger/ledger-server.js'
import { tempDir } from '../helpers/temp-dir.js'

/** The value of a metric line `name value` in a Prometheus text page. */
function metric(page: string, name: string): number {
  const line = page.split('\n').find((text) => text.startsWith(`${name} `))
  if (line === undefined) throw new Error(`no ${name} in /metrics`)
  return Number(line.slice(name.length + 1))
}

let refusedSoFar = 0

/** Occupies every thread of libuv's pool with an open of a FIFO that no one writes; returns what frees them. */
function stallThreadPool(): () => void {
  const dir = tempDir('reagent-stall-')
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4)
  const fifos = Array.from({ length: threads }, (_, i) => join(dir, `fifo-${i}`))
  for (const fifo of fifos) execFileSync('mkfifo', [fifo])
  const opened = fifos.map((fifo) => open(fifo, 'r').then((handle) => handle.close()))
  return () => {
    // Read and write at once: an open that never waits for a reader (Linux), which lets every waiting reader through.
    const writers = fifos.map((fifo) => openSync(fifo, 'r+'))
    void Promise.all(opened).then(() => {
      for (const fd of writers) closeSync(fd)
    })
  }
}

describe("the ledger's write queue", () => {
  it('answers a write that finds the queue full 503 with Retry-After, writes it nowhere, and counts batches, their sizes and the refused writes', async () => {
    const dir = tempDir('reagent-ledger-')
    const store = DirectoryStore.open({ dir, org: 'acme', namespace: 'ci', writeQueue: 4, watch: false })
    const server = await startLedgerServer({ store, port: 0, org: 'acme', namespace: 'ci', log: () => {} })
    onTestFinished(() => server.close())
    // A disk that does not answer: every thread of libuv's pool waits to open a FIFO no one writes yet, so the store's
    // file writes (on that pool) stall, its batches stay in flight, and the queue fills whatever the machine's speed.
    const release = stallThreadPool()
    const answering = Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const response = await fetch(`${server.url}/v1/run.begin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ agent: 'a', goal: 'g', run_id: `run-${i}` }),
        })
        if (response.status === 503) refusedSoFar += 1
        return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> }
      }),
    )
    // Every write is queued or refused once the queue is full; the refused ones are answered while the disk stalls.
    await expect.poll(() => refusedSoFar, { timeout: 10_000 }).toBeGreaterThan(0)
    release()
    const answers = await answering
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

  const listAll: ListQuery = { org: 'acme', namespace: 'ci', orderBy: 'started_desc', limit: 1, offset: 0 }

  /** 40 begins sent, then the store closed at once: close() answers every one before it lets go. */
  async function closedUnderWrites(store: LedgerStore, afterClose: () => void = () => {}): Promise<PromiseSettledResult<unknown>[]> {
    const begins = Array.from({ length: 40 }, (_, i) =>
      store.begin(checkedInput('run.begin', { org: 'acme', namespace: 'ci', agent: 'a', goal: 'g' }), `run-${i}`, 1_800_000_000),
    )
    await store.close()
    afterClose()
    return Promise.allSettled(begins)
  }

  it('is drained by close() on the directory store: every write queued is on the disk when it resolves', async () => {
    const dir = tempDir('reagent-ledger-')
    const store = DirectoryStore.open({ dir, org: 'acme', namespace: 'ci', watch: false })
    let written = 0
    const settled = await closedUnderWrites(store, () => {
      written = readdirSync(join(dir, 'ledger', 'acme', 'ci')).filter((name) => name.endsWith('.trace.json')).length
    })
    expect(written).toBe(40)
    expect(settled.map((result) => result.status)).toEqual(Array(40).fill('fulfilled'))
  })

  it.skipIf(POSTGRES_URL === undefined)('is drained by close() on PostgreSQL: every write queued is committed before the pool ends', async () => {
    const database = await createDatabase()
    try {
      const store = await PostgresStore.open({ url: database.url })
      expect((await closedUnderWrites(store)).map((result) => result.status)).toEqual(Array(40).fill('fulfilled'))
      const again = await PostgresStore.open({ url: database.url })
      expect((await again.list(listAll, { org: 'acme', namespace: 'ci' })).total).toBe(40)
      await again.close()
    } finally {
      await database.drop()
    }
  })
})
