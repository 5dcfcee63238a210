import { describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/temp-dir.js'
import { POSTGRES_URL } from './harness.js'
import { CAN_START_CLUSTER, startPrivateCluster } from './private-cluster.js'
import { spawnServe } from './serve-process.js'

interface Answer {
  status: number
  retryAfter: string | null
  error: unknown
}

async function call(url: string, operation: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${url}/v1/${operation}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const json = (await response.json()) as { error?: unknown }
  return { status: response.status, retryAfter: response.headers.get('retry-after'), error: json.error }
}

// A cluster of the test's own (restarting the shared one would break the PostgreSQL tests running beside it).
describe.skipIf(POSTGRES_URL === undefined || !CAN_START_CLUSTER)('a PostgreSQL-backed server when PostgreSQL restarts under load', () => {
  it('answers every call 200 or 503 with Retry-After while PostgreSQL restarts (pg_ctl restart -m fast), stays up, and answers 200 once it is back', async () => {
    const cluster = await startPrivateCluster()
    try {
      const server = await spawnServe(['--store', cluster.url], tempDir())
      const answers: Answer[] = []
      let loading = true
      const worker = async (w: number): Promise<void> => {
        for (let i = 0; loading; i++) {
          const begun = await call(server.url, 'run.begin', { agent: `agent-${w}`, goal: 'g', run_id: `w${w}-${i}`, session_id: `s${w}` })
          answers.push(begun)
          if (begun.status === 200) answers.push(await call(server.url, 'run.complete', { run_id: `w${w}-${i}`, status: 'completed' }))
          answers.push(await call(server.url, 'run.list', { limit: 5 }))
        }
      }
      const load = Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)))
      await new Promise((resolve) => setTimeout(resolve, 300))
      await cluster.restart()
      await new Promise((resolve) => setTimeout(resolve, 300))
      loading = false
      await load

      expect(server.child.exitCode).toBe(null)
      expect(server.stderr()).not.toMatch(/Unhandled| failed: /)
      const statuses = new Set(answers.map((answer) => answer.status))
      expect([...statuses].sort()).toEqual([200, 503])
      for (const answer of answers.filter((one) => one.status === 503)) expect(answer).toEqual({ status: 503, retryAfter: '1', error: 'unavailable' })
      // Back: every operation works again, on fresh connections (the broken ones were not pooled again).
      for (let i = 0; i < 20; i++) {
        expect((await call(server.url, 'run.begin', { agent: 'after', goal: 'g', run_id: `after-${i}` })).status).toBe(200)
        expect((await call(server.url, 'run.complete', { run_id: `after-${i}`, status: 'completed' })).status).toBe(200)
      }
      server.child.kill('SIGTERM')
      expect(await server.exited).toEqual({ code: 0, signal: null })
    } finally {
      cluster.stop()
    }
  }, 60_000)
})
