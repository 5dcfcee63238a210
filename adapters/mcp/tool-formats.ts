/**
 * An MCP server's tools in the forms an agent under test hands them to its
 * model: OpenAI chat-completions function tools, Anthropic tools, AI SDK
 * tools and LangChain tools (the last two call the server when the model
 * asks; the AI SDK and LangChain are loaded only when asked for).
 */
import type { DynamicStructuredTool } from '@langchain/core/tools'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'

/** A tool call's result as `callTool` returns it. */
interface CallResult {
  content?: unknown
  structuredContent?: unknown
  isError?: unknown
}

/** Calls tool `name` of the server with `args`. */
export type CallServerTool = (name: string, args: Record<string, unknown>) => Promise<CallResult>

export interface OpenAIFunctionTool {
  type: 'function'
  function: { name: string; description?: string; parameters: Record<string, unknown> }
}

export interface AnthropicTool {
  name: string
  description?: string
  input_schema: Tool['inputSchema']
}

function described(tool: Tool): { description?: string } {
  return tool.description === undefined ? {} : { description: tool.description }
}

export function openaiToolsOf(tools: readonly Tool[]): OpenAIFunctionTool[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, ...described(tool), parameters: tool.inputSchema } }))
}

export function anthropicToolsOf(tools: readonly Tool[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: tool.name, ...described(tool), input_schema: tool.inputSchema }))
}

function textOf(result: CallResult): string {
  if (!Array.isArray(result.content)) return ''
  return result.content
    .flatMap((part: { type?: unknown; text?: unknown }) => (part?.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    .join('\n')
}

/**
 * What a framework's tool returns to the model: the structured content when
 * the server gave some (else its text). A result the server marked
 * `isError` is thrown, with its text, as both frameworks show a failed tool.
 */
async function outputOf(call: Promise<CallResult>, structured: boolean): Promise<unknown> {
  const result = await call
  if (result.isError === true) throw new Error(textOf(result))
  return structured && result.structuredContent !== undefined ? result.structuredContent : textOf(result)
}

/** AI SDK tools (`tool()` with `jsonSchema()`), by name; each `execute` calls the server. */
export async function aiSdkToolsOf(tools: readonly Tool[], call: CallServerTool) {
  const { jsonSchema, tool } = await import('ai')
  return Object.fromEntries(
    tools.map((listed) => [
      listed.name,
      tool({
        ...described(listed),
        inputSchema: jsonSchema<Record<string, unknown>>(listed.inputSchema),
        execute: (args: Record<string, unknown>) => outputOf(call(listed.name, args), true),
      }),
    ]),
  )
}

/** LangChain tools (`tool()` of @langchain/core with the JSON Schema); each calls the server and returns its text. */
export async function langchainToolsOf(tools: readonly Tool[], call: CallServerTool): Promise<DynamicStructuredTool[]> {
  const { tool } = await import('@langchain/core/tools')
  return tools.map(
    (listed) =>
      tool(async (args: Record<string, unknown>) => String(await outputOf(call(listed.name, args), false)), {
        name: listed.name,
        description: listed.description ?? listed.name,
        schema: listed.inputSchema as Record<string, unknown>,
      }) as DynamicStructuredTool,
  )
}
