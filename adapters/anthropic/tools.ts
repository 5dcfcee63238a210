/**
 * The `tools` of a `messages.create()` request, as tools offered: a client
 * tool (its `input_schema`, the agent runs it) is a `function` tool; the
 * tools Anthropic defines (`web_search`, `code_execution`, `bash`,
 * `text_editor`, `computer`, ...: a versioned `type` and no schema of
 * their own) are `provider` tools, by their name.
 */
import type { OfferedTools, ToolDefinitionInput } from '../../src/adapter-support/index.js'
import type { WireCreateParams, WireTool } from './wire.js'

function toolOf(tool: unknown): ToolDefinitionInput | undefined {
  const { name, type, description, input_schema } = (tool ?? {}) as WireTool
  if (input_schema !== undefined && typeof name === 'string') {
    return { name, kind: 'function', description: typeof description === 'string' ? description : null, parameters: input_schema }
  }
  const named = typeof name === 'string' ? name : type
  return typeof named === 'string' ? { name: named, kind: 'provider' } : undefined
}

/** The request's tools; undefined when it offers none. */
export function offeredTools(params: WireCreateParams): OfferedTools | undefined {
  const { tools } = params
  return Array.isArray(tools) && tools.length > 0 ? { list: tools, read: toolOf, isWireData: true } : undefined
}
