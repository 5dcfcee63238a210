/**
 * `ReagentCallbackHandler`: a LangChain callback handler that records chat
 * model calls and tool runs into the active reagent-flow session.
 */
import { BaseCallbackHandler } from '@langchain/core/callbacks/base'
import type { Serialized } from '@langchain/core/load/serializable'
import type { BaseMessage } from '@langchain/core/messages'
import type { LLMResult } from '@langchain/core/outputs'
import { endRun, failRun, startModelRun, startToolRun } from './record.js'

/** The handler's LangChain name: the configure hook skips adding its handler to a run that already has one of this name. */
export const HANDLER_NAME = 'reagent_flow'

/**
 * Records LangChain chat model calls (messages, model, answer, tool calls,
 * token usage, errors) and tool runs (result or error, matched to the call by
 * its tool-call id) into the session active when each run started. Outside a
 * session it records nothing.
 *
 * Pass it in `callbacks`, or call `instrumentLangChain()` once to have every
 * run use it. Using both records each call once.
 *
 * @example
 * const s = await session('weather', () => agent.invoke(input, { callbacks: [new ReagentCallbackHandler()] }))
 */
export class ReagentCallbackHandler extends BaseCallbackHandler {
  name = HANDLER_NAME
  /**
   * Always awaited: LangChain runs the callbacks of a handler that is not
   * awaited on a background queue, in whatever async context the queue is in,
   * where the session could be another one's or already closed. Recording
   * takes microseconds, so awaiting costs nothing.
   */
  override awaitHandlers = true
  /**
   * Errors of this handler reach the run: the one it throws on purpose is
   * `BudgetExceededError`, a model call started past the session's `limits`
   * (every recording failure is caught and warned about, see record.ts).
   */
  override raiseError = true
  // Chain, retriever and custom events carry nothing we record; ignoring them spares LangChain the calls.
  override ignoreChain = true
  override ignoreRetriever = true
  override ignoreCustomEvent = true

  override handleChatModelStart(
    llm: Serialized,
    messages: BaseMessage[][],
    runId: string,
    _parentRunId?: string,
    extraParams?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    startModelRun(runId, { messages: messages[0] ?? [], llm, extraParams, metadata })
  }

  /** Text-completion models (`LLM`): each prompt is recorded as a user message. */
  override handleLLMStart(
    llm: Serialized,
    prompts: string[],
    runId: string,
    _parentRunId?: string,
    extraParams?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    startModelRun(runId, { messages: prompts, llm, extraParams, metadata })
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    endRun(runId, output)
  }

  override handleLLMError(error: unknown, runId: string): void {
    failRun(runId, error)
  }

  /**
   * The tool's name is `runName` (LangChain's serialized form of a `tool()` has
   * none), and the id of the tool call it answers is the eighth argument.
   */
  override handleToolStart(
    tool: Serialized,
    input: string,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    runName?: string,
    toolCallId?: string,
  ): void {
    const name = runName ?? (tool as { name?: string }).name ?? tool.id.at(-1) ?? 'unknown'
    startToolRun(runId, name, input, toolCallId)
  }

  override handleToolEnd(output: unknown, runId: string): void {
    endRun(runId, output)
  }

  override handleToolError(error: unknown, runId: string): void {
    failRun(runId, error)
  }
}
