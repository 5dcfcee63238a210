import { describe, expect, it } from 'vitest'
import { modulesLoadedBy } from '../helpers/modules-loaded.js'

const root = new URL('../../', import.meta.url)
const SERVER_SIDE = /\/node_modules\/(hono|@hono|pg|pg-[a-z]+|@modelcontextprotocol|better-sqlite3)\//

describe('the optional server-side peers (hono, @hono/node-server, pg, @modelcontextprotocol/sdk)', () => {
  it('are not loaded by importing reagent-flow, the ledger client, or recording a session that reports to a ledger', () => {
    const loaded = modulesLoadedBy(
      `
      const { session } = await import('reagent-flow')
      const { createLedgerClient } = await import('reagent-flow/ledger')
      createLedgerClient('http://127.0.0.1:65534')
      await session('x', { save: false, ledger: { url: 'http://127.0.0.1:65534', timeoutMs: 100 } }, () => 1)
    `,
      root,
    )
    expect(loaded.some((url) => url.includes('/dist/src/entries/index.js'))).toBe(true)
    expect(loaded.filter((url) => SERVER_SIDE.test(url))).toEqual([])
  })

  it('are loaded by the server module, which only serve and mcp import', () => {
    const loaded = modulesLoadedBy(`await import('./dist/src/ledger/ledger-server.js')`, root)
    expect(loaded.some((url) => url.includes('/node_modules/hono/'))).toBe(true)
  })
})
