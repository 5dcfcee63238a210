// test/refund-agent.test.ts
import OpenAI from 'openai'
import { expect } from 'vitest'
import { traceTool } from 'reagent-flow'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { test } from 'reagent-flow/vitest'

// The agent: two tools and a loop that runs until the model answers in words.
const lookupOrder = traceTool('lookup_order', async ({ order_id }: { order_id: string }) => ({ order_id, amount: 19.99 }))
const issueRefund = traceTool('issue_refund', async ({ order_id, amount }: { order_id: string; amount: number }) => `Refunded $${amount} on order ${order_id}.`)

const tools: OpenAI.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } } },
  { type: 'function', function: { name: 'issue_refund', parameters: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } } } } },
]

async function refundAgent(openai: OpenAI, question: string): Promise<string> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }]
  for (let step = 0; step < 10; step++) {
    const { message } = (await openai.chat.completions.create({ model: 'gpt-4o', messages, tools })).choices[0]!
    messages.push(message)
    if (!message.tool_calls?.length) return message.content ?? ''
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue
      const args = JSON.parse(call.function.arguments)
      const output = call.function.name === 'lookup_order' ? await lookupOrder(args) : await issueRefund(args)
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) })
    }
  }
  throw new Error('no answer after 10 steps')
}

test('looks the order up, then refunds what it cost', async ({ agentSession }) => {
  // For a real model: instrumentOpenAI(new OpenAI()), with OPENAI_API_KEY set.
  const openai = instrumentOpenAI(
    new OpenAI({
      apiKey: 'sk-test',
      fetch: scriptedFetch([
        { toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
        { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] },
        { text: 'Order 42 is refunded: $19.99.' },
      ]),
    }),
  )

  const s = await agentSession(() => refundAgent(openai, 'Refund order 42, please.'))

  expect(s).toMatchFlow(['lookup_order', 'issue_refund'])
  expect(s).toHaveCalledToolWith('issue_refund', { order_id: '42', amount: 19.99 })
  expect(s).toHaveFinalAnswer(/refunded: \$19\.99/)
  expect(s).toStayWithinTokens(2_000)
  expect(s).toMatchGolden()
})
