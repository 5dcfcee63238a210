// test/refund-agent.anthropic.test.ts
import Anthropic from '@anthropic-ai/sdk'
import { expect } from 'vitest'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentAnthropic } from 'reagent-flow/anthropic'
import { test } from 'reagent-flow/vitest'

const tools: Anthropic.Tool[] = [
  { name: 'lookup_order', input_schema: { type: 'object', properties: { order_id: { type: 'string' } } } },
  { name: 'issue_refund', input_schema: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } } } },
]

function runTool(name: string, input: { order_id: string; amount?: number }): unknown {
  return name === 'lookup_order' ? { order_id: input.order_id, amount: 19.99 } : `Refunded $${input.amount} on order ${input.order_id}.`
}

// Streams each answer with the SDK's MessageStream, as a chat UI would.
async function refundAgent(anthropic: Anthropic, question: string): Promise<string> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: question }]
  for (let step = 0; step < 10; step++) {
    const response = await anthropic.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 1024, tools, messages }).finalMessage()
    messages.push({ role: 'assistant', content: response.content })
    if (response.stop_reason !== 'tool_use') return response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
    const results: Anthropic.ToolResultBlockParam[] = []
    for (const block of response.content) {
      if (block.type !== 'tool_use') continue
      const output = runTool(block.name, block.input as { order_id: string; amount?: number })
      results.push({ type: 'tool_result', tool_use_id: block.id, content: JSON.stringify(output) })
    }
    messages.push({ role: 'user', content: results })
  }
  throw new Error('no answer after 10 steps')
}

test('looks the order up, then refunds it', async ({ agentSession }) => {
  const fetch = scriptedFetch([
    { text: 'Let me find that order.', toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
    { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }], usage: { inputTokens: 900, outputTokens: 40 } },
    { text: 'Order 42 is refunded.' },
  ])
  const anthropic = instrumentAnthropic(new Anthropic({ fetch, apiKey: 'sk-ant-test' }))

  const s = await agentSession(() => refundAgent(anthropic, 'Refund order 42, please.'))

  expect(s.output).toBe('Order 42 is refunded.')
  expect(s).toMatchFlow(['lookup_order', 'issue_refund'])
  expect(s.trace.turns[1]!.llm_call.token_usage).toMatchObject({ input_tokens: 900, output_tokens: 40 })
  s.assertTotalTokensUnder(2_000)
})
