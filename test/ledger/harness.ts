/**
 * Ledger servers for tests: a real HTTP server on a free loopback port over
 * a directory store (in a temporary directory) or a PostgreSQL store (in a
 * fresh database of the cluster REAGENT_TEST_POSTGRES_URL names), with a
 * clock the test moves. Calls go through fetch, as any client's would.
 */
import { gzipSync } from 'node:zlib'
import pg from 'pg'
import { onTestFinished } from 'vitest'
import { DirectoryStore } from '../../src/ledger/directory/directory-store.js'
import { startLedgerServer, type LedgerServer } from '../../src/ledger/ledger-server.js'
import { PostgresStore } from '../../src/ledger/postgres/postgres-store.js'
import type { LedgerStore } from '../../src/ledger/store.js'
import type { TokenRegistry } from '../../src/server/caller.js'
import { tempDir } from '../helpers/temp-dir.js'

export const POSTGRES_URL = process.env.REAGENT_TEST_POSTGRES_URL

/** 2027-01-15 08:00:00 UTC, in epoch seconds. */
export const T0 = 1_800_000_000

export class TestClock {
  seconds = T0
  readonly now = (): number => this.seconds
  advance(seconds: number): void {
    this.seconds += seconds
  }
}

export interface Reply<T = Record<string, unknown>> {
  status: number
  body: T
}

export interface TestLedger {
  url: string
  /** The server's own org (unique per test, so tests sharing a database never see each other's runs) and namespace. */
  org: string
  namespace: string
  clock: TestClock
  store: LedgerStore
  server: LedgerServer
  /** The log lines the server wrote. */
  log: string[]
  /** POST /v1/<operation> with `body` as JSON. */
  call<T = Record<string, unknown>>(
    operation: string,
    body?: unknown,
    init?: { token?: string; gzip?: boolean; headers?: Record<string, string> },
  ): Promise<Reply<T>>
}

export interface LedgerSetup {
  tokens?: TokenRegistry
  org?: string
  namespace?: string
  /** The directory store's trace directory (a fresh temporary one by default). */
  dir?: string
  /** Serve the team viewer at /ledger/, with goldens from this directory (see startLedgerServer). */
  teamViewer?: { goldenDir: string | undefined }
}

export type StartLedger = (setup?: LedgerSetup) => Promise<TestLedger>

let orgs = 0

/** The org a test's server answers as: unique per test. */
function orgOf(setup: LedgerSetup): string {
  return setup.org ?? `org${process.pid}x${++orgs}`
}

async function serve(store: LedgerStore, setup: LedgerSetup & { org: string }): Promise<TestLedger> {
  const clock = new TestClock()
  const log: string[] = []
  const namespace = setup.namespace ?? 'default'
  const server = await startLedgerServer({
    store,
    port: 0,
    tokens: setup.tokens,
    org: setup.org,
    namespace,
    now: clock.now,
    log: (line) => void log.push(line),
    teamViewer: setup.teamViewer,
  })
  onTestFinished(() => server.close())
  return {
    url: server.url,
    org: setup.org,
    namespace,
    clock,
    store,
    server,
    log,
    async call(operation, body = {}, init = {}) {
      const text = JSON.stringify(body)
      const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers }
      if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`
      if (init.gzip === true) headers['content-encoding'] = 'gzip'
      const response = await fetch(`${server.url}/v1/${operation}`, { method: 'POST', headers, body: init.gzip === true ? gzipSync(text) : text })
      return { status: response.status, body: (await response.json()) as never }
    },
  }
}

export const startDirectoryLedger: StartLedger = async (setup = {}) => {
  const org = orgOf(setup)
  const store = DirectoryStore.open({ dir: setup.dir ?? tempDir('reagent-ledger-'), org, namespace: setup.namespace ?? 'default' })
  return serve(store, { ...setup, org })
}

let databases = 0

/** A fresh database in the test cluster; its URL, and `drop()` to remove it. */
export async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL })
  await admin.connect()
  const name = `reagent_test_${process.pid}_${Date.now()}_${++databases}`
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(POSTGRES_URL!)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: POSTGRES_URL })
      await cleanup.connect()
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await cleanup.end()
    },
  }
}

/**
 * Ledgers on one database for the whole test file (created on first use;
 * drop it with `afterAll(database.drop)`): each test's server has an org of
 * its own, so tests never see each other's runs.
 */
export function postgresLedgers(): { start: StartLedger; drop: () => Promise<void>; url: () => Promise<string> } {
  let database: Promise<{ url: string; drop: () => Promise<void> }> | undefined
  return {
    async url() {
      database ??= createDatabase()
      return (await database).url
    },
    async start(setup = {}) {
      database ??= createDatabase()
      const store = await PostgresStore.open({ url: (await database).url })
      return serve(store, { ...setup, org: orgOf(setup) })
    },
    async drop() {
      await (await database)?.drop()
    },
  }
}
