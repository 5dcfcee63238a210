/**
 * The tools of a model call (the call options' `tools`), as tools offered:
 * a function tool with the JSON Schema the SDK made of its `inputSchema`
 * (from zod, valibot or any Standard Schema), and a provider-defined tool
 * (`openai.web_search`, `anthropic.code_execution`, ...) as a `provider` tool
 * under its name.
 */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider'
import type { OfferedTools, ToolDefinitionInput } from '../../src/adapter-support/index.js'

type CallTool = NonNullable<LanguageModelV3CallOptions['tools']>[number]

function toolOf(tool: unknown): ToolDefinitionInput | undefined {
  const t = tool as CallTool | null | undefined
  if (typeof t?.name !== 'string') return undefined
  if (t.type === 'provider') return { name: t.name, kind: 'provider' }
  return { name: t.name, kind: 'function', description: t.description ?? null, parameters: t.inputSchema }
}

/** The call's tools; undefined when it offers none. */
export function offeredTools(params: LanguageModelV3CallOptions): OfferedTools | undefined {
  const { tools } = params
  // A new array of new objects for every call: known again by its text.
  return Array.isArray(tools) && tools.length > 0 ? { list: tools, read: toolOf, isWireData: true } : undefined
}
