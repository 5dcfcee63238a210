/** What the pages read off a (compact) trace: one call's messages, a turn's tokens, a call's results. */
import type { MessagesBase } from '../../trace/messages.js'
import type { Message, ToolCall, ToolResult, Turn } from '../../trace/types.js'

function baseOf(turn: Turn | undefined): MessagesBase | undefined {
  return turn?.llm_call.messages_base as MessagesBase | undefined
}

/**
 * The full message list of turn `at`'s call: the messages its base points
 * at (recursively), then its own. Built only for the call shown, so a long
 * conversation costs what one call holds.
 */
export function messagesOf(turns: readonly Turn[], at: number): Message[] {
  const own = turns[at]?.llm_call.messages ?? []
  const base = baseOf(turns[at])
  if (base === undefined || base.turn >= at || base.count <= 0) return own
  return messagesOf(turns, base.turn).slice(0, base.count).concat(own)
}

/** How many of turn `at`'s messages came before (sent with an earlier call too). */
export function earlierCount(turns: readonly Turn[], at: number): number {
  return baseOf(turns[at])?.count ?? 0
}

export interface TurnTokens {
  input: number
  output: number
}

function count(usage: Record<string, unknown>, primary: string, alias: string): number {
  const value = usage[primary] ?? usage[alias]
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

/** The turn's tokens (input_tokens/output_tokens, or OpenAI's prompt/completion names), or null when it recorded none. */
export function turnTokens(turn: Turn): TurnTokens | null {
  const usage = turn.llm_call.token_usage as Record<string, unknown> | null | undefined
  if (usage === null || usage === undefined) return null
  return { input: count(usage, 'input_tokens', 'prompt_tokens'), output: count(usage, 'output_tokens', 'completion_tokens') }
}

/** The LLM call's own wall time, else the turn's duration. */
export function turnLatency(turn: Turn): number {
  return typeof turn.llm_call.latency_ms === 'number' ? turn.llm_call.latency_ms : turn.duration_ms
}

/** The results recorded for `call` in its turn (by call id). */
export function resultsOf(turn: Turn, call: ToolCall): ToolResult[] {
  return turn.tool_results.filter((result) => result.call_id === call.call_id)
}

/** Whether anything in the turn failed: the LLM call, or a tool. */
export function turnFailed(turn: Turn): boolean {
  return turn.llm_call.error !== undefined || turn.tool_results.some((result) => result.error !== null)
}

export const isReplayed = (turn: Turn): boolean => turn.llm_call.replayed === true
export const isInjected = (turn: Turn): boolean => turn.injected === true || turn.llm_call.injected === true
