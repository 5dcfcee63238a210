/**
 * A chat model (or text-completion model) run, as LangChain's callbacks
 * report it, in the lifecycle's terms: the messages and model of its start
 * callback, the LLMResult of its end callback.
 *
 * Callbacks see a call, never its events: a stream left before its end never
 * ends the run, and is cut short when the session closes, after LangChain's
 * background callbacks have run (one of them may still end it).
 */
import type { Serialized } from '@langchain/core/load/serializable'
import type { LLMResult } from '@langchain/core/outputs'
import { consumeCallback } from '@langchain/core/callbacks/promises'
import type { ModelApi, ModelRequest, RequestToolResult } from '../../src/adapter-support/index.js'
import { modelNameOf, providerOf, responseOf, toRecordedMessages } from './messages.js'
import { unwrapToolOutput } from './tool-output.js'
import { offeredTools } from './tools.js'

export const ADAPTER = 'reagent-flow/langchain'

/** What a model's start callback was given. */
export interface ModelStart {
  /** LangChain's message objects, or the prompt strings of a text-completion model. */
  messages: readonly unknown[]
  llm: Serialized
  extraParams: Record<string, unknown> | undefined
  metadata: Record<string, unknown> | undefined
}

/**
 * Resolves once every callback LangChain queued in the background so far has
 * run: the queue runs one callback at a time, in order, so a marker added now
 * runs after them.
 */
export function drainBackgroundCallbacks(): Promise<void> {
  return new Promise((resolve) => void consumeCallback(() => resolve(), false))
}

/**
 * The tool results the call's messages carry back: every `ToolMessage`, each
 * on its tool-call id. A tool run records its own result when it ends; these
 * are the ones no tool run made, which the framework wrote itself: LangGraph's
 * ToolNode answering a call of a tool it does not have (`Tool "x" not
 * found`), arguments that did not fit the tool's schema, an error caught by
 * `handleToolErrors`. The session records those of its own calls that have
 * no result yet, and leaves the rest (history from before it) alone.
 */
function toolResultsOf(messages: readonly unknown[]): RequestToolResult[] {
  const results: RequestToolResult[] = []
  for (const message of messages) {
    const callId = (message as { tool_call_id?: unknown } | null)?.tool_call_id
    if (typeof callId === 'string' && callId !== '') results.push({ callId, outcome: () => unwrapToolOutput(message) })
  }
  return results
}

export const chatModelCalls: ModelApi<ModelStart, LLMResult> = {
  adapter: ADAPTER,
  operation: 'a chat model call',
  request({ messages, llm, extraParams, metadata }) {
    const request: ModelRequest = {
      provider: providerOf(llm, metadata),
      model: modelNameOf(llm, extraParams, metadata),
      messages: toRecordedMessages(messages),
      toolResults: toolResultsOf(messages),
    }
    const tools = offeredTools(extraParams)
    return tools === undefined ? request : { ...request, tools }
  },
  response: responseOf,
  settle: drainBackgroundCallbacks,
}
