/**
 * The tools bound to a chat model (`bindTools`, `createAgent`), as its start
 * callback sees them: the call options' `tools` (else the provider's
 * invocation params). They are LangChain tools with a zod or Standard
 * Schema, converted to JSON Schema by `@langchain/core`'s own converter (the
 * one the models use to send them), or already in a provider's form (an
 * OpenAI function or custom tool, an Anthropic client tool). A tool with
 * neither (`{ type: 'web_search_preview' }`, an Anthropic server tool) is a
 * `provider` tool, by its name or type.
 */
import { isLangChainTool } from '@langchain/core/utils/function_calling'
import { toJsonSchema } from '@langchain/core/utils/json_schema'
import type { OfferedTools, ToolDefinitionInput } from '../../src/adapter-support/index.js'

type Fields = Record<string, unknown>

function fieldsOf(value: unknown): Fields | undefined {
  return value !== null && typeof value === 'object' ? (value as Fields) : undefined
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

function functionTool(fields: Fields | undefined, parameters: unknown): ToolDefinitionInput | undefined {
  const name = fields?.['name']
  return typeof name === 'string' ? { name, kind: 'function', description: textOrNull(fields?.['description']), parameters } : undefined
}

/** A LangChain tool's schema as JSON Schema; a schema the converter refuses is recorded as given, never lost. */
function jsonSchemaOf(schema: unknown): unknown {
  try {
    return toJsonSchema(schema as Parameters<typeof toJsonSchema>[0])
  } catch {
    return schema
  }
}

function toolOf(tool: unknown): ToolDefinitionInput | undefined {
  const fields = fieldsOf(tool)
  if (fields === undefined) return undefined
  if (isLangChainTool(tool)) return functionTool(fields, jsonSchemaOf(tool.schema))
  const fn = fieldsOf(fields['function'])
  if (fields['type'] === 'function' && fn !== undefined) return functionTool(fn, fn['parameters'])
  const custom = fieldsOf(fields['custom'])
  if (fields['type'] === 'custom' && custom !== undefined) return functionTool(custom, custom['format'] === undefined ? null : { format: custom['format'] })
  if (fields['input_schema'] !== undefined) return functionTool(fields, fields['input_schema'])
  const named = typeof fields['name'] === 'string' ? fields['name'] : fields['type']
  return typeof named === 'string' ? { name: named, kind: 'provider' } : undefined
}

/** The tools of a model run's start callback (its extra params); undefined when it offers none. */
export function offeredTools(extraParams: Fields | undefined): OfferedTools | undefined {
  const tools = fieldsOf(extraParams?.['options'])?.['tools'] ?? fieldsOf(extraParams?.['invocation_params'])?.['tools']
  return Array.isArray(tools) && tools.length > 0 ? { list: tools, read: toolOf } : undefined
}
