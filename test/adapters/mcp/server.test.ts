import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { isMcpServerError, mcpServer, type McpServerUnderTest } from '../../../src/entries/mcp.js'
import { ORDERS_STDIO, startHttpOrders } from './orders.js'

/** Whether process `pid` still runs. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const LOOKUP_ORDER = {
  name: 'lookup_order',
  description: 'Look up an order by its id.',
  schema: {
    type: 'object',
    properties: { order_id: { type: 'string', description: 'The order id, e.g. "42".' } },
    required: ['order_id'],
    $schema: 'http://json-schema.org/draft-07/schema#',
  },
}
const ISSUE_REFUND = {
  name: 'issue_refund',
  description: 'Refund an order, in full or in part.',
  schema: {
    type: 'object',
    properties: { order_id: { type: 'string' }, amount_eur: { type: 'number', exclusiveMinimum: 0 } },
    required: ['order_id', 'amount_eur'],
    $schema: 'http://json-schema.org/draft-07/schema#',
  },
}

describe('mcpServer over stdio', () => {
  it('starts the server, lists its tools, and close() ends its process', async () => {
    const orders = await mcpServer(ORDERS_STDIO)
    const pid = orders.pid!
    expect(isRunning(pid)).toBe(true)
    expect(orders.name).toBe('orders')
    expect(orders.tools().map((tool) => tool.name)).toEqual(['lookup_order', 'issue_refund'])
    expect(await orders.call('lookup_order', { order_id: '42' })).toEqual({
      content: [{ type: 'text', text: '{"order_id":"42","status":"delivered","total_eur":30}' }],
      structuredContent: { order_id: '42', status: 'delivered', total_eur: 30 },
    })
    await orders.close()
    expect(isRunning(pid)).toBe(false)
    await orders.close()
  })

  it("gives its tools as a contract: contract_version 1, the server's name, its tool definitions sorted", async () => {
    const orders = await mcpServer(ORDERS_STDIO)
    const contract = orders.contract()
    expect(Object.keys(contract)).toEqual(['contract_version', 'name', 'tools'])
    expect(contract.contract_version).toBe(1)
    expect(contract.name).toBe('orders')
    expect(contract.tools.map((tool) => [tool.kind, tool.name, tool.server, tool.description, Object.keys(tool)])).toEqual([
      ['mcp', 'issue_refund', 'orders', ISSUE_REFUND.description, ['description', 'kind', 'name', 'parameters', 'server']],
      ['mcp', 'lookup_order', 'orders', LOOKUP_ORDER.description, ['description', 'kind', 'name', 'parameters', 'result', 'server']],
    ])
    expect(JSON.stringify(contract.tools[1]!.parameters)).toBe(
      '{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"order_id":{"description":"The order id, e.g. \\"42\\".","type":"string"}},"required":["order_id"],"type":"object"}',
    )
  })

  it('gives its tools as OpenAI function tools and Anthropic tools', async () => {
    const orders = await mcpServer(ORDERS_STDIO)
    expect(orders.openaiTools()).toEqual(
      [LOOKUP_ORDER, ISSUE_REFUND].map(({ name, description, schema }) => ({ type: 'function', function: { name, description, parameters: schema } })),
    )
    expect(orders.anthropicTools()).toEqual([LOOKUP_ORDER, ISSUE_REFUND].map(({ name, description, schema }) => ({ name, description, input_schema: schema })))
  })

  it('gives its tools as AI SDK tools and LangChain tools that call the server, recorded in the session; a failed result throws its text', async () => {
    const orders = await mcpServer(ORDERS_STDIO)
    const aiSdk = await orders.aiSdkTools()
    const langchain = await orders.langchainTools()
    expect(Object.keys(aiSdk)).toEqual(['lookup_order', 'issue_refund'])
    expect(aiSdk.lookup_order!.inputSchema).toMatchObject({ jsonSchema: LOOKUP_ORDER.schema })
    expect(langchain.map((tool) => [tool.name, tool.description])).toEqual([
      [LOOKUP_ORDER.name, LOOKUP_ORDER.description],
      [ISSUE_REFUND.name, ISSUE_REFUND.description],
    ])
    const s = await session('orders', { save: false }, async (s) => {
      s.logLlmCall({
        toolCalls: [
          { name: 'lookup_order', arguments: { order_id: '42' }, callId: 'call_1' },
          { name: 'issue_refund', arguments: { order_id: '42', amount_eur: 99 }, callId: 'call_2' },
        ],
      })
      const options = { toolCallId: 'call_1', messages: [] }
      return [
        await aiSdk.lookup_order!.execute!({ order_id: '42' }, options),
        await langchain[1]!.invoke({ order_id: '42', amount_eur: 99 }).catch((error: unknown) => String(error)),
      ]
    })
    expect(s.output).toEqual([{ order_id: '42', status: 'delivered', total_eur: 30 }, 'Error: Order 42 totals 30 EUR.'])
    expect(s.trace.turns[0]!.tool_results.map((result) => result.error)).toEqual([null, 'McpToolError: Order 42 totals 30 EUR.'])
  })
})

describe('mcpServer, its server gone', () => {
  it('a call to a stdio server that exited is an McpServerError with how it exited', async () => {
    const orders = await mcpServer(ORDERS_STDIO)
    process.kill(orders.pid!, 'SIGKILL')
    await expect.poll(() => isRunning(orders.pid!)).toBe(false)
    const error = await orders.call('lookup_order', { order_id: '42' }).catch((error: unknown) => error)
    expect(isMcpServerError(error)).toBe(true)
    expect((error as Error).message).toBe(
      `MCP server "${ORDERS_STDIO.command} ${ORDERS_STDIO.args[0]}" was killed by SIGKILL while calling lookup_order; it wrote nothing to stderr`,
    )
  })
})

describe('mcpServer inside a test, not closed', () => {
  let forgotten: McpServerUnderTest | undefined

  it('is left running by its test', async () => {
    forgotten = await mcpServer(ORDERS_STDIO)
    expect(isRunning(forgotten.pid!)).toBe(true)
  })

  it('is closed when that test finished: its process is gone', () => {
    expect(isRunning(forgotten!.pid!)).toBe(false)
  })
})

describe('mcpServer over streamable HTTP', () => {
  it('reaches a running server by its URL, lists its tools and calls them', async () => {
    const { url } = await startHttpOrders()
    const orders = await mcpServer({ url, headers: { 'x-test': 'yes' } })
    expect(orders.pid).toBeNull()
    expect(orders.name).toBe('orders')
    expect(orders.tools().map((tool) => tool.name)).toEqual(['lookup_order', 'issue_refund'])
    expect(await orders.call('lookup_order', { order_id: '9' })).toEqual({ content: [{ type: 'text', text: 'Order 9 not found.' }], isError: true })
    await orders.close()
  })
})

describe('an MCP server that cannot serve', () => {
  async function failure(options: Parameters<typeof mcpServer>[0]) {
    const error = await mcpServer(options).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(isMcpServerError(error)).toBe(true)
    return error as Error & { exitCode: number | null; stderr: string; server: string }
  }

  it('that does not start: an McpServerError naming the command', async () => {
    const error = await failure({ command: 'no-such-mcp-server', args: ['--stdio'] })
    expect(error.message).toBe('MCP server "no-such-mcp-server --stdio" did not start: spawn no-such-mcp-server ENOENT. Check its command, args and cwd.')
    expect(error.exitCode).toBeNull()
  })

  it('that exits: an McpServerError with its exit code and the last lines of its stderr', async () => {
    const script = 'console.error("loading config"); console.error("Error: ORDERS_DB is not set"); process.exit(3)'
    const error = await failure({ command: process.execPath, args: ['-e', script] })
    expect(error.message).toBe(
      `MCP server "${process.execPath} -e ${script}" exited with code 3 before answering initialize (last 2 lines of its stderr):\n` +
        '  loading config\n' +
        '  Error: ORDERS_DB is not set',
    )
    expect(error.exitCode).toBe(3)
    expect(error.stderr).toBe('loading config\nError: ORDERS_DB is not set')
  })

  it('that never answers initialize: an McpServerError after timeoutMs, its process ended', async () => {
    const script = 'console.error("waiting for the database"); setInterval(() => {}, 1000)'
    const error = await failure({ command: process.execPath, args: ['-e', script], timeoutMs: 300 })
    expect(error.message).toBe(
      `MCP server "${process.execPath} -e ${script}" did not answer initialize within 300 ms (last line of its stderr):\n` +
        '  waiting for the database\n' +
        'If it starts slowly, raise timeoutMs.',
    )
    expect(error.exitCode).toBeNull()
    expect(execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })).not.toContain('waiting for the database')
  })

  it('over HTTP, that cannot be reached: an McpServerError naming the URL', async () => {
    const { url, stop } = await startHttpOrders()
    await stop()
    const error = await failure({ url })
    expect(error.message).toBe(
      `MCP server at ${url} could not be initialized: fetch failed (connect ECONNREFUSED 127.0.0.1:${new URL(url).port}). Check that it runs and serves MCP at this URL.`,
    )
  })
})
