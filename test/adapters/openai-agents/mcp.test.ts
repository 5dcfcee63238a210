import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent, hostedMcpTool, MCPServerStreamableHttp, OpenAIResponsesModel, run } from '@openai/agents'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { describe, expect, it, onTestFinished } from 'vitest'
import { z } from 'zod'
import { instrumentOpenAIAgents } from '../../../src/entries/openai-agents.js'
import { session } from '../../../src/entries/index.js'
import { fixtureJson, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { chatModel, openaiClient } from './triage-agents.js'

instrumentOpenAIAgents()

/** A real MCP server (the MCP SDK's), over Streamable HTTP on a local port, with one tool. */
async function startMcpServer(): Promise<string> {
  const http = createServer((request, response) => {
    void (async () => {
      const server = new McpServer({ name: 'orders', version: '1.0.0' })
      server.registerTool('order_status', { description: 'The status of an order.', inputSchema: { order_id: z.string() } }, ({ order_id }) => ({
        content: [{ type: 'text', text: JSON.stringify({ order_id, status: 'shipped' }) }],
      }))
      // Stateless: no session ids, a server per request.
      const transport = new StreamableHTTPServerTransport({})
      response.on('close', () => void transport.close())
      await server.connect(transport)
      await transport.handleRequest(request, response)
    })()
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => http.close(() => resolve())))
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`
}

describe('instrumentOpenAIAgents: MCP tools', () => {
  it("records a local MCP server's tool call as a tool result, and keeps the server on the turn and its tools on the trace", async () => {
    const mcp = new MCPServerStreamableHttp({ url: await startMcpServer(), name: 'orders' })
    await mcp.connect()
    onTestFinished(() => mcp.close())
    const lookup = structuredClone(
      fixtureJson<{ choices: [{ message: { tool_calls: [{ function: { name: string; arguments: string } }] } }] }>('openai-agents/billing-lookup.json'),
    )
    lookup.choices[0].message.tool_calls[0].function = { name: 'order_status', arguments: '{"order_id":"42"}' }
    const answer = fixtureJson('openai-agents/billing-answer.json')
    const server = await startCannedServer(inOrder({ json: lookup }, { json: answer }))
    const agent = new Agent({ name: 'Orders agent', model: chatModel(server), mcpServers: [mcp] })

    const s = await session('orders', { save: false }, async () => (await run(agent, 'Where is order 42?')).finalOutput)

    expect(s.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'call_l00kup1nv01ce42xYz9Q', result: { order_id: '42', status: 'shipped' }, error: null, duration_ms: expect.any(Number) },
    ])
    expect(s.trace.turns[0]!['mcp_calls']).toEqual([{ name: 'order_status', server: 'orders' }])
    expect(s.trace['mcp_tools']).toEqual([{ server: 'orders', tools: ['order_status'] }])
  })

  it('records a hosted MCP call (run by the provider) as a tool call with its result in its turn, the server and the listed tools kept', async () => {
    const server = await startCannedServer(inOrder({ json: fixtureJson('openai-agents/hosted-mcp.json') }))
    const agent = new Agent({
      name: 'Wiki agent',
      model: new OpenAIResponsesModel(openaiClient(server), 'gpt-4.1'),
      tools: [hostedMcpTool({ serverLabel: 'wiki', serverUrl: 'https://wiki.example.com/mcp', requireApproval: 'never' })],
    })

    const s = await session('wiki', { save: false }, async () => (await run(agent, 'How are refunds issued in acme/shop?')).finalOutput)

    expect(s.output).toBe("Through the billing service's refund endpoint.")
    const [turn] = s.trace.turns
    expect(turn!.llm_call.tool_calls.map((call) => [call.name, call.arguments, call.call_id])).toEqual([
      ['ask_question', { repoName: 'acme/shop', question: 'How are refunds issued?' }, 'mcp_68a1c0ffee0call0000000000000000000000000001'],
    ])
    expect(turn!.tool_results.map((result) => [result.call_id, result.result, result.error, result.duration_ms])).toEqual([
      ['mcp_68a1c0ffee0call0000000000000000000000000001', "Refunds go through the billing service's refund endpoint.", null, 0],
    ])
    expect(turn!['mcp_calls']).toEqual([{ name: 'ask_question', server: 'wiki' }])
    expect(s.trace['mcp_tools']).toEqual([{ server: 'wiki', tools: ['read_wiki_structure', 'ask_question'] }])
  })
})
