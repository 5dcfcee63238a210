/**
 * An Agents SDK `ModelRequest` in the recorder's terms: the system
 * instructions and the input items as messages, and the outputs of earlier
 * tool calls the input carries back (`function_call_result` items) as tool
 * results. A request made with `traceIncludeSensitiveData: false` (its
 * `tracing` is "enabled_without_data") is recorded without its messages:
 * what the SDK keeps out of its own traces, the recording keeps out too.
 */
import { inputMessages, toolOutputValue, type InputMessage, type ModelRequest, type RequestToolResult } from '../../src/adapter-support/index.js'
import { offeredTools } from './tools.js'
import { field } from './wire.js'

const RESULT_ITEMS: ReadonlySet<unknown> = new Set(['function_call_result', 'computer_call_result', 'shell_call_output', 'apply_patch_call_output'])

/** True when the SDK withholds this call's data from its traces. */
export function isWithheld(request: unknown): boolean {
  return field(request, 'tracing') === 'enabled_without_data'
}

/** The tools offered are recorded also for a call whose data is withheld: they are the agent's code, not the conversation. */
export function requestOf(request: unknown, provider: string | null, model: string | null): ModelRequest {
  const tools = offeredTools(request)
  const read: ModelRequest = isWithheld(request)
    ? { provider, model, messages: null, toolResults: [] }
    : {
        provider,
        model,
        messages: inputMessages(field(request, 'systemInstructions'), field(request, 'input'), messageOf),
        toolResults: toolResultsOf(field(request, 'input')),
      }
  return tools === undefined ? read : { ...read, tools }
}

function messageOf(item: unknown): InputMessage | undefined {
  const role = field(item, 'role')
  if (typeof role === 'string') return { role, content: field(item, 'content') ?? null }
  const type = field(item, 'type')
  if (RESULT_ITEMS.has(type)) return { role: 'tool', content: outputOf(field(item, 'output')) ?? null }
  if (typeof type === 'string' && type.endsWith('_call')) return { role: 'assistant', content: null }
  return undefined
}

/** A tool output as the SDK puts it in an input item: text, `{ type: 'text', text }`, or parts. */
function outputOf(output: unknown): unknown {
  return field(output, 'type') === 'text' ? field(output, 'text') : output
}

function toolResultsOf(input: unknown): RequestToolResult[] {
  if (!Array.isArray(input)) return []
  const results: RequestToolResult[] = []
  for (const item of input) {
    const callId = field(item, 'callId')
    if (RESULT_ITEMS.has(field(item, 'type')) && typeof callId === 'string') {
      results.push({ callId, outcome: () => ({ result: toolOutputValue(outputOf(field(item, 'output'))) }) })
    }
  }
  return results
}
