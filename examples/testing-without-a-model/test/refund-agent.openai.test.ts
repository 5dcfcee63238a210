// test/refund-agent.openai.test.ts
import OpenAI from 'openai'
import { expect } from 'vitest'
import { scriptedFetch, ScriptExhaustedError } from 'reagent-flow/fake'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { test } from 'reagent-flow/vitest'

const tools: OpenAI.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } } },
  { type: 'function', function: { name: 'issue_refund', parameters: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } } } } },
]

function runTool(name: string, args: { order_id: string; amount?: number }): unknown {
  return name === 'lookup_order' ? { order_id: args.order_id, amount: 19.99 } : `Refunded $${args.amount} on order ${args.order_id}.`
}

// The agent under test takes its client, so a test can hand it a scripted one.
async function refundAgent(openai: OpenAI, question: string): Promise<string> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }]
  for (let step = 0; step < 10; step++) {
    const { message } = (await openai.chat.completions.create({ model: 'gpt-4o', messages, tools })).choices[0]!
    messages.push(message)
    if (!message.tool_calls?.length) return message.content ?? ''
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue
      const output = runTool(call.function.name, JSON.parse(call.function.arguments))
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) })
    }
  }
  throw new Error('no answer after 10 steps')
}

test('looks the order up, then refunds what it cost', async ({ agentSession }) => {
  const fetch = scriptedFetch([
    { toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
    (request) => {
      const order = JSON.parse(request.messages.at(-1)!.content) // the lookup result the agent sent back
      return { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: order.amount } }] }
    },
    { text: 'Order 42 is refunded: $19.99.' },
  ])
  const openai = instrumentOpenAI(new OpenAI({ fetch, apiKey: 'sk-test' }))

  const s = await agentSession(() => refundAgent(openai, 'Refund order 42, please.'))

  expect(s.output).toBe('Order 42 is refunded: $19.99.')
  expect(s).toMatchFlow(['lookup_order', 'issue_refund'])
  expect(s).toHaveCalledToolWith('issue_refund', { order_id: '42', amount: 19.99 })
  expect(fetch.remaining).toBe(0)
})

test('rides out a rate limit: the SDK retries the 429, the retry gets the next step', async () => {
  const fetch = scriptedFetch([{ error: { status: 429, message: 'Rate limit reached.' } }, { text: 'Nothing to refund.' }])
  const openai = new OpenAI({ fetch, apiKey: 'sk-test', maxRetries: 1 })
  expect(await refundAgent(openai, 'Refund order 7.')).toBe('Nothing to refund.')
})

test('fails with ScriptExhaustedError when the agent asks the model once more than scripted', async () => {
  const fetch = scriptedFetch([{ toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] }])
  const openai = new OpenAI({ fetch, apiKey: 'sk-test' })
  await expect(refundAgent(openai, 'Refund order 42.')).rejects.toThrow(ScriptExhaustedError)
})
