/**
 * The neutral request of an OpenAI Responses API call: `instructions` as the
 * system message, `input` as text or items. Consecutive assistant items (a
 * message, then its `function_call`s) are one assistant message, as in the
 * other APIs; a `function_call_output` is a tool message.
 */
import { isRecord, listOf, parseArguments, scriptTool, stringOr, textOf } from '../request.js'
import type { ScriptMessage, ScriptRequestToolCall, ScriptTool } from '../types.js'
import type { ParsedRequest } from './wire-format.js'

export function parseResponsesRequest(body: Record<string, unknown>): ParsedRequest {
  const messages: ScriptMessage[] = []
  if (typeof body.instructions === 'string') messages.push({ role: 'system', content: body.instructions })
  if (typeof body.input === 'string') messages.push({ role: 'user', content: body.input })
  for (const item of listOf(body.input).filter(isRecord)) addItem(messages, item)
  return {
    model: stringOr(body.model, undefined),
    messages,
    tools: listOf(body.tools).flatMap(toolOf),
    stream: body.stream === true,
  }
}

function addItem(messages: ScriptMessage[], item: Record<string, unknown>): void {
  switch (item.type) {
    case 'function_call':
      return addToAssistant(messages, '', [{ id: stringOr(item.call_id, ''), name: stringOr(item.name, ''), arguments: parseArguments(item.arguments) }])
    case 'custom_tool_call':
      return addToAssistant(messages, '', [{ id: stringOr(item.call_id, ''), name: stringOr(item.name, ''), arguments: item.input }])
    case 'function_call_output':
    case 'custom_tool_call_output':
      messages.push({ role: 'tool', content: textOf(item.output), toolCallId: stringOr(item.call_id, '') })
      return
    case 'message':
    case undefined:
      return addMessage(messages, item)
    default:
      // Reasoning, web search calls and the like say nothing a script needs; they stay in `body`.
      return
  }
}

function addMessage(messages: ScriptMessage[], item: Record<string, unknown>): void {
  const content = textOf(item.content)
  if (item.role === 'assistant') return addToAssistant(messages, content, [])
  messages.push({ role: item.role === 'system' || item.role === 'developer' ? 'system' : 'user', content })
}

function addToAssistant(messages: ScriptMessage[], content: string, toolCalls: ScriptRequestToolCall[]): void {
  const last = messages.at(-1)
  if (last?.role === 'assistant') {
    messages[messages.length - 1] = { role: 'assistant', content: last.content + content, toolCalls: [...last.toolCalls, ...toolCalls] }
    return
  }
  messages.push({ role: 'assistant', content, toolCalls })
}

function toolOf(tool: unknown): ScriptTool[] {
  if (!isRecord(tool) || tool.type !== 'function' || typeof tool.name !== 'string') return []
  return [scriptTool(tool.name, tool.description, tool.parameters)]
}
