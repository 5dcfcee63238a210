// mcp/orders-server.ts
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const orders: Record<string, { order_id: string; status: string; total_eur: number }> = {
  '42': { order_id: '42', status: 'delivered', total_eur: 30 },
}

const server = new McpServer({ name: 'orders', version: '1.0.0' })

server.registerTool(
  'lookup_order',
  {
    description: 'Look up an order by its id.',
    inputSchema: { order_id: z.string() },
    outputSchema: { order_id: z.string(), status: z.string(), total_eur: z.number() },
  },
  async ({ order_id }) => {
    const order = orders[order_id]
    if (order === undefined) return { content: [{ type: 'text', text: `Order ${order_id} not found.` }], isError: true }
    return { content: [{ type: 'text', text: JSON.stringify(order) }], structuredContent: order }
  },
)

server.registerTool(
  'issue_refund',
  { description: 'Refund an order, in full or in part.', inputSchema: { order_id: z.string(), amount_eur: z.number().positive() } },
  async ({ order_id, amount_eur }) => ({ content: [{ type: 'text', text: `Refunded ${amount_eur} EUR on order ${order_id}.` }] }),
)

await server.connect(new StdioServerTransport())
