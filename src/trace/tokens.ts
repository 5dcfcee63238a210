/**
 * Reading token counts from any trace, ours or reagent-flow 0.5's: presence
 * decides (a recorded 0 is a real 0), `input_tokens`/`output_tokens` first,
 * then OpenAI's `prompt_tokens`/`completion_tokens`.
 */
import type { TokenUsage, Trace } from './types.js'

export interface TokenCounts {
  input: number
  output: number
}

function count(usage: TokenUsage, primary: string, alias: string): number {
  const value = usage[primary] ?? usage[alias]
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

/** Input and output tokens of one usage record. */
export function readTokens(usage: TokenUsage): TokenCounts {
  return { input: count(usage, 'input_tokens', 'prompt_tokens'), output: count(usage, 'output_tokens', 'completion_tokens') }
}

/** Sum over the turns that recorded usage; `measuredTurns` says how many did. */
export function sumTokens(trace: Trace): TokenCounts & { measuredTurns: number } {
  const total = { input: 0, output: 0, measuredTurns: 0 }
  for (const turn of trace.turns) {
    const usage = turn.llm_call.token_usage
    if (usage === null || usage === undefined) continue
    const { input, output } = readTokens(usage)
    total.input += input
    total.output += output
    total.measuredTurns += 1
  }
  return total
}
