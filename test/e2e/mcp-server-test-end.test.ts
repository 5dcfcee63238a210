/**
 * `mcpServer()` in a user's vitest project, as published (dist/): a server a
 * test forgot to close is ended when the test finishes, and when the test
 * fails its stderr is shown.
 */
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { scratchProject, writeFiles } from '../helpers/doc-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

const SERVER = new URL('../../fixtures/mcp/orders-server.mjs', import.meta.url).pathname

const TEST_FILE = `
import { writeFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { mcpServer } from 'reagent-flow/mcp'

test('finds order 43', async () => {
  const orders = await mcpServer({ command: process.execPath, args: [${JSON.stringify(SERVER)}, '--log'] })
  writeFileSync('server.pid', String(orders.pid))
  expect(await orders.call('lookup_order', { order_id: '43' })).not.toHaveProperty('isError')
})
`

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('mcpServer in a vitest project', () => {
  let dir = ''
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('ends the server of a failed test that did not close it, and shows its stderr', { timeout: 60_000 }, async () => {
    dir = scratchProject('reagent-mcp-')
    writeFiles(dir, new Map([['test/orders.test.ts', TEST_FILE]]))
    const { exitCode, output } = await runVitest(dir)
    expect(exitCode).toBe(1)
    expect(output).toContain(`MCP server "${process.execPath} ${SERVER} --log" wrote to stderr:\norders: ready on stdio, 1 order loaded\n`)
    expect(isRunning(Number(readFileSync(join(dir, 'server.pid'), 'utf8')))).toBe(false)
  })
})
