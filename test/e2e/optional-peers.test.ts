import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { modulesLoadedBy } from '../helpers/modules-loaded.js'
import { tempDir } from '../helpers/temp-dir.js'

const root = new URL('../../', import.meta.url)
const SERVER_SIDE = /\/node_modules\/(hono|@hono|pg|pg-[a-z]+|@modelcontextprotocol|better-sqlite3|prom-client)\//

describe('the optional server-side peers (hono, @hono/node-server, pg, @modelcontextprotocol/sdk, prom-client)', () => {
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

  it('are loaded by the ledger server, which only serve and mcp start', () => {
    // `reagent-flow serve --port 0` in a folder of its own, stopped once it says where it listens.
    const cli = new URL('dist/src/cli/index.js', root).href
    const loaded = modulesLoadedBy(
      `
      const write = process.stdout.write.bind(process.stdout)
      process.stdout.write = (chunk, ...rest) => {
        if (String(chunk).includes('the run ledger on')) setImmediate(() => process.exit(0))
        return write(chunk, ...rest)
      }
      process.argv.splice(1, Infinity, 'reagent-flow', 'serve', '--port', '0')
      await import(${JSON.stringify(cli)})
    `,
      tempDir(),
    )
    expect(loaded.some((url) => url.includes('/node_modules/hono/'))).toBe(true)
    expect(loaded.some((url) => url.includes('/node_modules/prom-client/'))).toBe(true)
    // The team viewer's charting library is in its browser bundle (dist/src/viewer/client/ledger.js), never a module of the server.
    expect(loaded.filter((url) => url.includes('/node_modules/uplot/'))).toEqual([])
  })
})

/** The source files (from its source map) a bundled file of dist/ holds. */
function sourcesOf(url: string): string[] {
  const map = JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as { sources: string[] }
  return map.sources.map((source) => new URL(source, url).pathname.replace(fileURLToPath(root), ''))
}

describe("a cold import('reagent-flow')", () => {
  it('reads a handful of bundled files, holding no server, command line, ledger reporter, viewer or OpenTelemetry code, and no ajv or diff', () => {
    const loaded = modulesLoadedBy("await import('reagent-flow')", root)
    const ours = [...new Set(loaded.filter((url) => url.includes('/dist/src/')))]
    expect(ours.length).toBeGreaterThan(1)
    // 21 since reagent-flow/simulate (issue 26) shares the judge's code with the root entry: esbuild gives that code a chunk of its own;
    // 22 since the tool-contract engine (issue 27) is shared by the root entry, reagent-flow/vitest and the command line: a chunk too;
    // 23 since the tool sets' module (trace/tool-sets.ts) is shared by the adapters, the session and the contracts: one more.
    // 24 since the work a session hands off as it closes (session/handed-off.ts, issue 28) is shared by the root entry, reagent-flow/vitest
    // and reagent-flow/ledger's ledgerSent: a chunk of 40 lines.
    expect(ours.length).toBeLessThanOrEqual(24)
    const sources = ours.flatMap(sourcesOf)
    expect(sources).toContain('src/session/session.ts')
    expect(
      sources.filter((source) => /^src\/(server|cli|viewer|watch|otel|fake)\/|^src\/ledger\/(session-reporter|client|ledger-server|service)\.ts$/.test(source)),
    ).toEqual([])
    const packages = new Set(loaded.filter((url) => url.includes('/node_modules/')).map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]))
    expect([...packages].sort()).toEqual(['fast-json-stable-stringify', 'picocolors'])
  })
})
