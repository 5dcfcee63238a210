import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/temp-dir.js'

const root = new URL('../../', import.meta.url)
const SERVER_SIDE = /\/node_modules\/(hono|@hono|pg|pg-[a-z]+|@modelcontextprotocol|better-sqlite3)\//

/** The URL of every module `code` loads (ESM and CommonJS alike), through a module resolve hook. */
function modulesLoadedBy(code: string): string[] {
  const dir = tempDir()
  const log = join(dir, 'loaded.txt')
  writeFileSync(log, '')
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs'
     let log
     export function initialize(data) { log = data.log }
     export async function resolve(specifier, context, next) {
       const result = await next(specifier, context)
       appendFileSync(log, result.url + '\\n')
       return result
     }`,
  )
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module'\nregister('./hooks.mjs', import.meta.url, { data: { log: ${JSON.stringify(log)} } })`,
  )
  execFileSync(process.execPath, ['--no-warnings', '--import', join(dir, 'register.mjs'), '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' })
  return readFileSync(log, 'utf8').split('\n').filter(Boolean)
}

describe('the optional server-side peers (hono, @hono/node-server, pg, @modelcontextprotocol/sdk)', () => {
  it('are not loaded by importing reagent-flow, the ledger client, or recording a session that reports to a ledger', () => {
    const loaded = modulesLoadedBy(`
      const { session } = await import('reagent-flow')
      const { createLedgerClient } = await import('reagent-flow/ledger')
      createLedgerClient('http://127.0.0.1:65534')
      await session('x', { save: false, ledger: { url: 'http://127.0.0.1:65534', timeoutMs: 100 } }, () => 1)
    `)
    expect(loaded.some((url) => url.includes('/dist/src/entries/index.js'))).toBe(true)
    expect(loaded.filter((url) => SERVER_SIDE.test(url))).toEqual([])
  })

  it('are loaded by the server module, which only serve and mcp import', () => {
    const loaded = modulesLoadedBy(`await import('./dist/src/ledger/ledger-server.js')`)
    expect(loaded.some((url) => url.includes('/node_modules/hono/'))).toBe(true)
  })
})
