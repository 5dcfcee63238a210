// test/orders-server.test.ts
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import OpenAI from 'openai'
import { beforeAll, describe, expect } from 'vitest'
import { session, type Session } from 'reagent-flow'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentMcpClient, mcpServer } from 'reagent-flow/mcp'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { test } from 'reagent-flow/vitest'
import { supportAgent } from '../src/support-agent.js'

// The server under test, over stdio; tsx runs its TypeScript.
const ORDERS = { command: process.execPath, args: ['--import', 'tsx', fileURLToPath(new URL('../mcp/orders-server.ts', import.meta.url))] }

// A scripted model: it looks order 42 up, refunds what it cost, and says how that went.
function scriptedModel(): OpenAI {
  const fetch = scriptedFetch([
    { toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
    (request) => {
      const { structuredContent } = JSON.parse(request.messages.at(-1)!.content)
      return { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount_eur: structuredContent.total_eur } }] }
    },
    (request) => ({ text: `Refund of order 42: ${request.messages.at(-1)!.content}` }),
  ])
  return instrumentOpenAI(new OpenAI({ fetch, apiKey: 'sk-test' }))
}

test('offers the tools of its contract', async () => {
  const orders = await mcpServer(ORDERS)
  expect(orders.name).toBe('orders')
  expect(orders.contract().tools.map((tool) => [tool.name, tool.description, Object.keys(tool.parameters?.properties ?? {})])).toEqual([
    ['issue_refund', 'Refund an order, in full or in part.', ['amount_eur', 'order_id']],
    ['lookup_order', 'Look up an order by its id.', ['order_id']],
  ])
  // Its tool list, snapshotted: the first run writes the contract, a later change fails the test (docs/contracts.md).
  const listed = await session('orders tools', () => orders.client.listTools())
  expect(listed).toMatchToolContract()
})

test('lets the agent look an order up and refund it', async ({ agentSession }) => {
  const orders = await mcpServer(ORDERS)
  const s = await agentSession(() => supportAgent(scriptedModel(), orders.client, 'Refund order 42, please.'))

  expect(s).toMatchFlow(['lookup_order', 'issue_refund'])
  expect(s).toHaveCalledToolWith('issue_refund', { order_id: '42', amount_eur: 30 })
  expect(s.trace.turns[1]!.tool_results[0]!.result).toEqual({ content: [{ type: 'text', text: 'Refunded 30 EUR on order 42.' }] })
  expect(Object.values(s.trace.tool_sets ?? {})[0]!.map((tool) => `${tool.server}/${tool.name}`)).toEqual(['orders/issue_refund', 'orders/lookup_order'])
})

describe('replayed offline', () => {
  const traceDir = mkdtempSync(join(tmpdir(), 'orders-'))
  let live: Session
  let replayed: Session

  // Outside a test, a session is named only by its name: the replay finds what the recording run wrote.
  beforeAll(async () => {
    const orders = await mcpServer(ORDERS)
    live = await session('refund-42', { traceDir, replay: 'record', replayTools: true }, () =>
      supportAgent(scriptedModel(), orders.client, 'Refund order 42, please.'),
    )
    await orders.close()

    const offline = instrumentMcpClient(new Client({ name: 'support-agent', version: '1.0.0' })) // never connected
    const openai = instrumentOpenAI(new OpenAI({ apiKey: 'sk-test' })) // answered from the recording too
    replayed = await session('refund-42', { traceDir, replay: 'replay', replayTools: true }, () =>
      supportAgent(openai, offline, 'Refund order 42, please.'),
    )
  })

  test('with the server stopped and the client never connected, the agent does the same', () => {
    expect(replayed.output).toBe(live.output)
    expect(replayed).toMatchFlow(['lookup_order', 'issue_refund'])
    expect(replayed.trace.turns[1]!.tool_results[0]!.result).toEqual({ content: [{ type: 'text', text: 'Refunded 30 EUR on order 42.' }] })
  })
})

test('tells the customer when the refund fails', async ({ agentSession }) => {
  const orders = await mcpServer(ORDERS)
  const s = await agentSession({ faults: [{ tool: 'issue_refund', error: 'refunds are down' }] }, () =>
    supportAgent(scriptedModel(), orders.client, 'Refund order 42, please.'),
  )

  expect(s.output).toBe('Refund of order 42: failed: ToolFaultError: refunds are down')
  expect(s.trace.turns[1]!.tool_results[0]!.error).toBe('ToolFaultError: refunds are down')
})
