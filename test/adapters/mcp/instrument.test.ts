import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { describe, expect, it } from 'vitest'
import { currentSession, session } from '../../../src/entries/index.js'
import { instrumentMcpClient } from '../../../src/entries/mcp.js'
import { watchSockets } from '../../helpers/sockets.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { connectedClient, type Transport } from './orders.js'

const LOOKUP_42 = {
  content: [{ type: 'text', text: '{"order_id":"42","status":"delivered","total_eur":30}' }],
  structuredContent: { order_id: '42', status: 'delivered', total_eur: 30 },
}
const NOT_FOUND_9 = { content: [{ type: 'text', text: 'Order 9 not found.' }], isError: true }
const REFUND_42 = { content: [{ type: 'text', text: '{"refund_id":"rf_42","order_id":"42","amount_eur":30}' }] }

/** The orders server's tools as the trace keeps them: sorted keys, by name, kind mcp, the server's name. */
const ORDERS_TOOL_SET = [
  {
    description: 'Refund an order, in full or in part.',
    kind: 'mcp',
    name: 'issue_refund',
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      properties: { amount_eur: { exclusiveMinimum: 0, type: 'number' }, order_id: { type: 'string' } },
      required: ['order_id', 'amount_eur'],
      type: 'object',
    },
    server: 'orders',
  },
  {
    description: 'Look up an order by its id.',
    kind: 'mcp',
    name: 'lookup_order',
    parameters: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      properties: { order_id: { description: 'The order id, e.g. "42".', type: 'string' } },
      required: ['order_id'],
      type: 'object',
    },
    result: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      additionalProperties: false,
      properties: { order_id: { type: 'string' }, status: { type: 'string' }, total_eur: { type: 'number' } },
      required: ['order_id', 'status', 'total_eur'],
      type: 'object',
    },
    server: 'orders',
  },
]

/**
 * What a support agent does with the orders server: the model (logged by
 * hand here) asks for three tool calls, and the agent makes them through
 * the client; returns what the calls gave back.
 */
async function supportAgent(client: Client): Promise<unknown[]> {
  const { tools } = await client.listTools()
  currentSession()!.logLlmCall({
    model: 'gpt-4o',
    responseText: null,
    toolCalls: [
      { name: 'lookup_order', arguments: { order_id: '42' }, callId: 'call_1' },
      { name: 'lookup_order', arguments: { order_id: '9' }, callId: 'call_2' },
      { name: 'issue_refund', arguments: { order_id: '42', amount_eur: 30 }, callId: 'call_3' },
    ],
  })
  const results: unknown[] = [tools.map((tool) => tool.name)]
  for (const [name, args] of [
    ['lookup_order', { order_id: '42' }],
    ['lookup_order', { order_id: '9' }],
    ['issue_refund', { order_id: '42', amount_eur: 30 }],
  ] as const) {
    results.push(await client.callTool({ name, arguments: args }).catch((error: unknown) => `threw ${String(error)}`))
  }
  return results
}

const EXPECTED_OUTPUT = [['lookup_order', 'issue_refund'], LOOKUP_42, NOT_FOUND_9, REFUND_42]

describe.each<Transport>(['stdio', 'streamable HTTP'])('instrumentMcpClient over %s', (transport) => {
  it("records the server's tool listing once as a tool set (kind mcp, the server's name) and each call's result, an isError result as the call's error", async () => {
    const client = instrumentMcpClient(await connectedClient(transport))
    const s = await session('orders', { save: false }, async () => {
      await client.listTools()
      return supportAgent(client)
    })
    expect(s.output).toEqual(EXPECTED_OUTPUT)
    expect(s.trace.tool_sets).toEqual({ ts_bd629b1f0c78: ORDERS_TOOL_SET })
    expect(s.trace.turns[0]!.tool_results.map(({ duration_ms, ...result }) => result)).toEqual([
      { call_id: 'call_1', result: LOOKUP_42, error: null },
      { call_id: 'call_2', result: null, error: 'McpToolError: Order 9 not found.' },
      { call_id: 'call_3', result: REFUND_42, error: null },
    ])
  })

  it('answers the listing and the calls from the recording with replayTools, the server stopped: no process, no socket', async () => {
    const traceDir = tempDir()
    const live = instrumentMcpClient(await connectedClient(transport))
    const recorded = await session('orders', { traceDir, replay: 'record', replayTools: true }, () => supportAgent(live))
    await live.close()

    const sockets = watchSockets()
    // Never connected: there is no transport, no process, nothing to reach.
    const offline = instrumentMcpClient(new Client({ name: 'support-agent', version: '1.0.0' }))
    const replayed = await session('orders', { traceDir, replay: 'replay', replayTools: true, strict: true }, () => supportAgent(offline))
    expect(offline.transport).toBeUndefined()
    expect(sockets.opened()).toBe(0)
    expect(replayed.output).toEqual(EXPECTED_OUTPUT)
    expect(replayed.trace.tool_sets).toEqual(recorded.trace.tool_sets)
    expect(replayed.trace.turns[0]!.tool_results.map((result) => [result.result, result.error])).toEqual(
      recorded.trace.turns[0]!.tool_results.map((result) => [result.result, result.error]),
    )
  })

  it('fails a call the faults option names with a ToolFaultError; the other calls go through', async () => {
    const client = instrumentMcpClient(await connectedClient(transport))
    const s = await session('orders', { save: false, faults: [{ tool: 'issue_refund', error: 'refunds are down' }] }, () => supportAgent(client))
    expect(s.output).toEqual([['lookup_order', 'issue_refund'], LOOKUP_42, NOT_FOUND_9, 'threw ToolFaultError: refunds are down'])
    expect(s.trace.turns[0]!.tool_results.map((result) => result.error)).toEqual([null, 'McpToolError: Order 9 not found.', 'ToolFaultError: refunds are down'])
    expect(s.trace.turns[0]!.injected_results).toEqual(['call_3'])
  })
})

describe('instrumentMcpClient', () => {
  it("records a thrown protocol error as the call's error, and the caller gets it unchanged", async () => {
    const client = instrumentMcpClient(await connectedClient('stdio'))
    await client.close()
    const s = await session('orders', { save: false }, async (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' }, callId: 'call_1' }] })
      return client.callTool({ name: 'lookup_order', arguments: { order_id: '42' } }).catch((error: unknown) => String(error))
    })
    expect(s.output).toBe('Error: Not connected')
    expect(s.trace.turns[0]!.tool_results[0]!.error).toBe('Error: Not connected')
  })

  it('changes nothing outside a session, and instrumenting a client again returns it as it is', async () => {
    const client = await connectedClient('stdio')
    const listTools = instrumentMcpClient(client).listTools
    expect(instrumentMcpClient(client)).toBe(client)
    expect(client.listTools).toBe(listTools)
    expect(await client.callTool({ name: 'lookup_order', arguments: { order_id: '9' } })).toEqual(NOT_FOUND_9)
  })

  it('refuses what is not an MCP client, naming what it got', () => {
    expect(() => instrumentMcpClient({} as Client)).toThrow(
      new TypeError(
        'instrumentMcpClient(client) needs an MCP client (new Client() from "@modelcontextprotocol/sdk/client/index.js"), got an object without listTools and callTool.',
      ),
    )
  })
})
