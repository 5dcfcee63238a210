/**
 * The neutral request of a LangChain chat model call: its BaseMessages, and
 * the tools `bindTools` put in the call options (OpenAI tool definitions).
 */
import { isAIMessage, isToolMessage, type BaseMessage } from '@langchain/core/messages'
import { isRecord, listOf, scriptTool, textOf } from '../request.js'
import type { ScriptMessage, ScriptTool } from '../types.js'

export function chatMessages(messages: readonly BaseMessage[]): ScriptMessage[] {
  return messages.map((message): ScriptMessage => {
    const content = textOf(message.content)
    if (isAIMessage(message)) {
      return { role: 'assistant', content, toolCalls: (message.tool_calls ?? []).map((call) => ({ id: call.id ?? '', name: call.name, arguments: call.args })) }
    }
    if (isToolMessage(message))
      return { role: 'tool', content, toolCallId: message.tool_call_id, ...(message.name === undefined ? {} : { name: message.name }) }
    const type = message.getType()
    return { role: type === 'system' || type === 'developer' ? 'system' : 'user', content }
  })
}

export function boundTools(tools: unknown): ScriptTool[] {
  return listOf(tools).flatMap((tool) => {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined
    return fn !== undefined && typeof fn.name === 'string' ? [scriptTool(fn.name, fn.description, fn.parameters)] : []
  })
}
