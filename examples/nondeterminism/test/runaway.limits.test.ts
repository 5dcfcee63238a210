// test/runaway.limits.test.ts
import OpenAI from 'openai'
import { expect } from 'vitest'
import { BudgetExceededError, traceTool, type Session } from 'reagent-flow'
import { scriptedFetch } from 'reagent-flow/fake'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { test } from 'reagent-flow/vitest'

const search = traceTool('search', ({ q }: { q: string }) => `Nothing found for ${q}.`)
const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }]

// A research agent with no step limit of its own: it stops when the model stops asking for tools.
async function researchAgent(openai: OpenAI): Promise<string> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Find the refund policy.' }]
  for (;;) {
    const { message } = (await openai.chat.completions.create({ model: 'gpt-4o', messages, tools })).choices[0]!
    messages.push(message)
    if (!message.tool_calls?.length) return message.content ?? ''
    for (const call of message.tool_calls) {
      if (call.type === 'function') messages.push({ role: 'tool', tool_call_id: call.id, content: search(JSON.parse(call.function.arguments)) })
    }
  }
}

// A model that does not give up: it searches again and again, 1,000 input and 100 output tokens a call.
const searchAgain = { toolCalls: [{ name: 'search', arguments: { q: 'refund policy' } }], usage: { inputTokens: 1000, outputTokens: 100 } }

test('stops an agent that keeps searching', async ({ agentSession }) => {
  const openai = instrumentOpenAI(new OpenAI({ fetch: scriptedFetch(Array(50).fill(searchAgain)), apiKey: 'sk-test' }))
  let run: Session | undefined
  const stopped = agentSession({ limits: { turns: 5, usd: 1 } }, (s) => {
    run = s
    return researchAgent(openai)
  })

  await expect(stopped).rejects.toThrow(BudgetExceededError)
  await expect(stopped).rejects.toThrow(
    'went past its limit of 5 turns (limits.turns: 6 model calls), so the model call was not made. Raise limits.turns, or look at the trace for why the agent kept going.',
  )
  expect(run!.status).toBe('cancelled')
  expect(run!.trace.interruption_reason).toBe('limits.turns of 5 turns passed (6 model calls)')
  expect(run!.trace.turns).toHaveLength(5) // the sixth call was never made
})
