import { describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/temp-dir.js'
import { POSTGRES_URL } from './harness.js'
import { CAN_START_CLUSTER, startPrivateCluster } from './private-cluster.js'
import { post, spawnServe } from './serve-process.js'

const PASSWORD = 'pg-pass-0123456789abcdef'

async function readyz(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}/readyz`)
  return { status: response.status, body: await response.text() }
}

const metrics = async (url: string): Promise<string> => (await fetch(`${url}/metrics`)).text()

// A cluster of the test's own: stopping the shared one would break the PostgreSQL tests running beside this one.
describe.skipIf(POSTGRES_URL === undefined || !CAN_START_CLUSTER)('a PostgreSQL-backed server while PostgreSQL is down', () => {
  it('answers /readyz 503 (store unreachable) while PostgreSQL is stopped and 200 once it is back, logs the loss and the return once each, counts the store errors, and never logs the password', async () => {
    const cluster = await startPrivateCluster()
    try {
      // Trust authentication ignores the password: it is there to be kept out of every line.
      const url = cluster.url.replace('postgres@', `postgres:${PASSWORD}@`)
      const redacted = cluster.url.replace('postgres@', 'postgres:***@')
      const server = await spawnServe(['--store', url], tempDir())
      expect(await readyz(server.url)).toEqual({ status: 200, body: '{"ready":true,"checks":{"server":"ok","store":"ok"}}' })
      expect((await post(server.url, 'run.list', {})).status).toBe(200)
      const before = await metrics(server.url)
      expect(before).toMatch(/^reagent_store_pool_connections [1-9]\d*$/m)
      expect(before).toMatch(/^reagent_store_pool_idle_connections [1-9]\d*$/m)
      expect(before).toContain('\nreagent_store_pool_waiting_calls 0\n')
      expect(before).not.toContain('reagent_store_errors_total{')

      await cluster.halt()
      expect(await readyz(server.url)).toEqual({ status: 503, body: '{"ready":false,"checks":{"server":"ok","store":"unreachable"}}' })
      expect(await post(server.url, 'run.list', {})).toEqual({
        status: 503,
        body: { error: 'unavailable', message: `run.list: the ledger's store (${redacted}) cannot be reached; try again in a moment` },
      })
      // /healthz: the process is up, whatever the store.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)

      await cluster.start()
      expect(await readyz(server.url)).toEqual({ status: 200, body: '{"ready":true,"checks":{"server":"ok","store":"ok"}}' })
      expect((await post(server.url, 'run.list', {})).status).toBe(200)
      const after = await metrics(server.url)
      expect(after.split('\n').filter((line) => line.startsWith('reagent_store_errors_total{'))).toEqual([
        'reagent_store_errors_total{operation="ping",kind="unavailable"} 1',
        'reagent_store_errors_total{operation="list",kind="unavailable"} 1',
      ])
      expect(after).toContain('reagent_http_requests_total{operation="readyz",status="503"} 1\n')
      expect(after).toContain('reagent_http_requests_total{operation="run.list",status="503"} 1\n')

      server.child.kill('SIGTERM')
      expect(await server.exited).toEqual({ code: 0, signal: null })
      const lines = server
        .stderr()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: string; event: string; message?: string; location?: string; operation?: string; status?: number })
      expect(lines.find((line) => line.event === 'store_connected')?.location).toBe(redacted)
      expect(lines.filter((line) => line.event !== 'request' || line.status === 503).map((line) => [line.level, line.event, line.operation ?? null])).toEqual([
        ['info', 'store_connected', null],
        ['info', 'start', null],
        ['warn', 'store_lost', 'ping'],
        ['warn', 'unavailable', 'run.list'],
        ['warn', 'request', 'run.list'],
        ['info', 'store_reconnected', 'ping'],
        ['info', 'shutdown', null],
        ['info', 'stopped', null],
      ])
      expect(lines.find((line) => line.event === 'store_lost')?.message).toMatch(
        /^the postgres store cannot be reached \(.+\); calls are answered 503 until it is back$/,
      )
      expect(server.stderr()).not.toContain(PASSWORD)
    } finally {
      cluster.stop()
    }
  }, 60_000)
})
