/**
 * Token usage: normalising what providers send (`normalizeTokenUsage`), and
 * reading token counts from any trace, ours or reagent-flow 0.5's: presence
 * decides (a recorded 0 is a real 0), `input_tokens`/`output_tokens` first,
 * then OpenAI's `prompt_tokens`/`completion_tokens`.
 */
import { toJsonValue, type ValueIssueHandler } from './serialize.js'
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

const TOKEN_ALIASES: Record<string, string> = {
  prompt_tokens: 'input_tokens',
  completion_tokens: 'output_tokens',
}

const UPPER = /[A-Z]/
const UPPER_ALL = /[A-Z]/g

function snakeCase(key: string): string {
  // Most providers already send snake_case: test before building a new string.
  return UPPER.test(key) ? key.replace(UPPER_ALL, (c) => `_${c.toLowerCase()}`) : key
}

/** `{ prompt_tokens, completionTokens, ... }` -> `{ input_tokens, output_tokens, ... }`; non-numbers kept as JSON. */
export function normalizeTokenUsage(raw: unknown, onIssue?: ValueIssueHandler): TokenUsage | null {
  if (raw === null || typeof raw !== 'object') return null
  const out: TokenUsage = {}
  const aliased: Record<string, number> = {}
  for (const rawKey in raw) {
    if (!Object.hasOwn(raw, rawKey)) continue
    const value: unknown = (raw as Record<string, unknown>)[rawKey]
    if (value === undefined || value === null) continue
    const key = snakeCase(rawKey)
    const canonical = TOKEN_ALIASES[key]
    if (canonical !== undefined && typeof value === 'number') aliased[canonical] = value
    else out[key] = toJsonValue(value, onIssue)
  }
  for (const [key, value] of Object.entries(aliased)) if (typeof out[key] !== 'number') out[key] = value
  return out
}
