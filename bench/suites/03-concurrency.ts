import { session, type Session } from 'reagent-flow'
import type { BenchSuite } from '../run.js'
import type { Row } from '../lib/report.js'

const gc = (globalThis as { gc?: () => void }).gc

async function openSessions(count: number): Promise<{ bytesPerSession: number; ms: number }> {
  gc?.()
  gc?.()
  const before = process.memoryUsage().heapUsed
  const started = performance.now()
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const open: Array<Promise<Session>> = []
  const recorded: Array<Promise<void>> = []
  for (let i = 0; i < count; i++) {
    let done!: () => void
    recorded.push(new Promise<void>((resolve) => (done = resolve)))
    open.push(
      session(`agent-${i}`, { save: false }, async (s) => {
        for (let t = 0; t < 10; t++) {
          s.logLlmCall({ toolCalls: [{ name: 'work', arguments: { agent: i, t } }] })
          await Promise.resolve()
          s.logToolResult('work', { result: { ok: t } })
        }
        done()
        await gate
      }),
    )
  }
  await Promise.all(recorded)
  const ms = performance.now() - started
  gc?.()
  gc?.()
  const bytes = process.memoryUsage().heapUsed - before
  release()
  await Promise.all(open)
  return { bytesPerSession: bytes / count, ms }
}

export const suite: BenchSuite = {
  name: 'concurrency',
  async run() {
    const name = 'Concurrent open sessions (10 turns each, all open at once)'
    const rows: Row[] = []
    await openSessions(100)
    for (const count of [250, 500, 1000]) {
      const { bytesPerSession, ms } = await openSessions(count)
      rows.push({ suite: name, name: `${count} sessions: heap per session`, value: bytesPerSession, unit: 'bytes' })
      rows.push({ suite: name, name: `${count} sessions: time to record all`, value: ms, unit: 'ms' })
    }
    return rows
  },
}
