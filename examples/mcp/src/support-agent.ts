// src/support-agent.ts
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type OpenAI from 'openai'

export async function supportAgent(openai: OpenAI, mcp: Client, question: string): Promise<string> {
  const { tools } = await mcp.listTools()
  const offered: OpenAI.ChatCompletionTool[] = tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema },
  }))
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }]
  for (let step = 0; step < 10; step++) {
    const { message } = (await openai.chat.completions.create({ model: 'gpt-4o', messages, tools: offered })).choices[0]!
    messages.push(message)
    if (!message.tool_calls?.length) return message.content ?? ''
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue
      const content = await mcp.callTool({ name: call.function.name, arguments: JSON.parse(call.function.arguments) }).then(
        (result) => JSON.stringify(result),
        (error: unknown) => `failed: ${String(error)}`,
      )
      messages.push({ role: 'tool', tool_call_id: call.id, content })
    }
  }
  throw new Error('no answer after 10 steps')
}
