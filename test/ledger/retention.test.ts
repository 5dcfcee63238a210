/**
 * The server's retention (serve --retention): a prune of every project the
 * server serves soon after start, then at each interval (shortened here),
 * one at a time, each outcome a log line, a failure logged without stopping
 * the schedule, and nothing after shutdown, which waits for a prune in flight.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { DirectoryStore } from '../../src/ledger/directory/directory-store.js'
import { startLedgerServer, type LedgerServer } from '../../src/ledger/ledger-server.js'
import type { LedgerStore, PruneOutcome, PrunePolicy } from '../../src/ledger/store.js'
import type { Scope } from '../../src/ledger/identity.js'
import { readTokenFile } from '../../src/ledger/tokens.js'
import { tempDir } from '../helpers/temp-dir.js'
import { startDirectoryLedger, T0, TestClock } from './harness.js'

const DAY = 86_400

/** `store` with its prune replaced. */
function withPrune(store: LedgerStore, prune: LedgerStore['prune']): LedgerStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'prune') return prune
      const value = Reflect.get(target, key, target) as unknown
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
}

async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const events = (log: readonly string[], name: string): Array<Record<string, unknown>> =>
  log.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === name)

async function serveWithRetention(store: LedgerStore, log: string[], intervalMs: number, extra: { tokens?: ReturnType<typeof readTokenFile> } = {}) {
  const clock = new TestClock()
  const server: LedgerServer = await startLedgerServer({
    store,
    port: 0,
    org: 'acme',
    namespace: 'default',
    now: clock.now,
    log: (line) => void log.push(line),
    logFormat: 'json',
    retention: { olderThan: '90d', keepFailed: false, keepLast: 1, firstDelayMs: 0, intervalMs },
    ...extra,
  })
  onTestFinished(() => server.close())
  return server
}

describe("the server's retention", () => {
  it('prunes every project it serves soon after start and logs each outcome', async () => {
    const dir = tempDir()
    // Old runs in two projects, written by a server without retention.
    const file = join(tempDir(), 'tokens.json')
    writeFileSync(file, JSON.stringify({ tokens: [{ name: 'ci', token: 'ci-token-0123456789abcdef', org: 'acme', namespace: 'ci' }] }))
    const tokens = readTokenFile(file)
    const seeding = await startDirectoryLedger({ dir, org: 'acme', tokens })
    for (const [id, age] of [
      ['old', 200],
      ['new', 1],
    ] as const) {
      seeding.clock.seconds = T0 - age * DAY
      await seeding.call('run.begin', { run_id: id, agent: 'refund', goal: 'g' }, { token: 'ci-token-0123456789abcdef' })
      await seeding.call('run.complete', { run_id: id, status: 'completed' }, { token: 'ci-token-0123456789abcdef' })
    }
    await seeding.server.close()
    const log: string[] = []
    await serveWithRetention(DirectoryStore.open({ dir, org: 'acme', namespace: 'default', watch: false }), log, 3_600_000, { tokens })
    await until(() => events(log, 'retention').length === 2, 'two retention lines')
    const before = new Date((T0 - 90 * DAY) * 1000).toISOString()
    expect(events(log, 'retention').map(({ time: _time, ...line }) => line)).toEqual([
      {
        level: 'info',
        event: 'retention',
        message: `retention (org acme, namespace default): removed 0 run(s) started before ${before}; kept 0 active, 0 newest of their agent, 0 of a branch's latest results, 0 failed`,
        org: 'acme',
        namespace: 'default',
        removed: 0,
        before,
        kept_active: 0,
        kept_last: 0,
        kept_baseline: 0,
        kept_failed: 0,
        partitions_dropped: 0,
      },
      expect.objectContaining({
        message: `retention (org acme, namespace ci): removed 1 run(s) started before ${before}; kept 0 active, 0 newest of their agent, 0 of a branch's latest results, 0 failed`,
        namespace: 'ci',
        removed: 1,
      }),
    ])
  })

  it('never starts a prune while one runs, logs a failure and goes on, and stops on shutdown after the prune in flight', async () => {
    const calls: PrunePolicy[] = []
    let release: (() => void) | undefined
    const store = withPrune(DirectoryStore.open({ dir: tempDir(), org: 'acme', namespace: 'default', watch: false }), async (_scope: Scope, policy) => {
      calls.push(policy)
      if (calls.length === 1) throw new Error('disk on fire')
      await new Promise<void>((resolve) => {
        release = resolve
      })
      return { removed: 0, kept: { failed: 0, last: 0, baseline: 0, active: 0 }, partitionsDropped: 0 } satisfies PruneOutcome
    })
    const log: string[] = []
    const server = await serveWithRetention(store, log, 10)
    await until(() => calls.length === 2, 'the second prune')
    expect(events(log, 'retention_failed').map((line) => [line.level, line.message])).toEqual([
      ['error', 'retention (org acme, namespace default) failed, tried again in 10 ms: disk on fire'],
    ])
    // The interval passed many times over while the second prune ran: no other one started.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(calls).toHaveLength(2)
    let closed = false
    const closing = server.close().then(() => {
      closed = true
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(closed).toBe(false)
    release!()
    await closing
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(calls).toHaveLength(2)
    expect(calls[1]).toEqual({ before: T0 - 90 * DAY, keepFailed: false, keepLastPerAgent: 1, dryRun: false })
  })
})
