// test/support-conversation.test.ts
import OpenAI from 'openai'
import { expect, test } from 'vitest'
import { traceTool } from 'reagent-flow'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { chatHistory, conversation, simulatedUser, type Transcript } from 'reagent-flow/simulate'

// The agent under test: a support agent that looks an order up before it refunds it.
const lookupOrder = traceTool('lookup_order', async ({ order_id }: { order_id: string }) => ({ order_id, amount: 19.99, status: 'delivered' }))
const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'lookup_order', description: 'Find an order', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } },
  },
]

async function supportAgent(openai: OpenAI, transcript: Transcript): Promise<string> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are the support desk of Acme.' }, ...chatHistory(transcript)]
  for (;;) {
    const { choices } = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools })
    const message = choices[0]!.message
    if (message.tool_calls === undefined || message.tool_calls.length === 0) return message.content ?? ''
    messages.push(message)
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue
      const order = await lookupOrder(JSON.parse(call.function.arguments) as { order_id: string })
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(order) })
    }
  }
}

test('a customer who wants a refund gets one', async () => {
  // In your app: new OpenAI() for both. Here each side's requests are answered by a script.
  const agentModel = instrumentOpenAI(
    new OpenAI({
      apiKey: 'sk-test',
      fetch: scriptedFetch([
        { text: 'Sorry to hear that. What is your order number?' },
        { toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
        { text: 'Order 42 is refunded: $19.99 is on its way back to you.' },
      ]),
    }),
  )
  const userModel = new OpenAI({
    apiKey: 'sk-test',
    fetch: scriptedFetch([
      { text: 'Hi, my order arrived broken and I want my money back.' },
      { text: "It's order 42." },
      { toolCalls: [{ name: 'end_conversation', arguments: { goal_met: true, reason: 'Order 42 was refunded.' } }] },
    ]),
  })
  const user = simulatedUser({
    goal: 'Get a refund for order 42, which arrived broken',
    persona: 'Polite; gives the order number only when asked',
    model: { client: userModel, model: 'gpt-4o-mini' },
  })

  const conv = await conversation('support', { user, maxTurns: 6 }, (_message, transcript) => supportAgent(agentModel, transcript))

  expect(conv.output).toMatchObject({ endedBy: 'user', goalMet: true, exchanges: 2 })
  expect(conv).toHaveCalledTool('lookup_order')
  expect(conv.trace.conversation?.messages.map((m) => `${m.role}: ${m.content}`)).toEqual([
    'user: Hi, my order arrived broken and I want my money back.',
    'assistant: Sorry to hear that. What is your order number?',
    "user: It's order 42.",
    'assistant: Order 42 is refunded: $19.99 is on its way back to you.',
  ])
})
