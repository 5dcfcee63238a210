/**
 * The neutral request of an AI SDK model call: the V3 prompt's messages and
 * the function tools of the call options.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3Message, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider'
import { scriptTool, textOf } from '../request.js'
import type { ScriptMessage, ScriptTool } from '../types.js'

export function promptMessages(prompt: LanguageModelV3CallOptions['prompt']): ScriptMessage[] {
  return prompt.flatMap(messagesOf)
}

export function functionTools(tools: LanguageModelV3CallOptions['tools']): ScriptTool[] {
  return (tools ?? []).flatMap((tool) => (tool.type === 'function' ? [scriptTool(tool.name, tool.description, tool.inputSchema)] : []))
}

function messagesOf(message: LanguageModelV3Message): ScriptMessage[] {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: message.content }]
    case 'user':
      return [{ role: 'user', content: textOf(message.content) }]
    case 'assistant': {
      const toolCalls = message.content.flatMap((part) =>
        part.type === 'tool-call' ? [{ id: part.toolCallId, name: part.toolName, arguments: part.input }] : [],
      )
      return [{ role: 'assistant', content: textOf(message.content.filter((part) => part.type === 'text')), toolCalls }]
    }
    case 'tool':
      return message.content.flatMap((part) =>
        part.type === 'tool-result' ? [{ role: 'tool' as const, content: outputText(part.output), toolCallId: part.toolCallId, name: part.toolName }] : [],
      )
  }
}

/** A tool's output as the text a provider would send the model. */
function outputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value)
    case 'execution-denied':
      return output.reason ?? 'Tool execution denied.'
    case 'content':
      return textOf(output.value)
  }
}
