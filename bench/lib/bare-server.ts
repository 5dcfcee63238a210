/**
 * The baseline of the ledger's figures: the same framework (Hono on
 * @hono/node-server) with one route that answers `{}`, in a process of its
 * own as the ledger is. Prints its URL on stdout.
 */
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import type { AddressInfo } from 'node:net'

const app = new Hono()
app.post('/v1/bare', (c) => c.json({}))
const server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' })
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
