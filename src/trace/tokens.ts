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

/** Provider names -> trace names: OpenAI's chat counts (renamed when they are numbers) and their details (whatever they hold). */
const TOKEN_ALIASES: ReadonlyMap<string, { canonical: string; isCount: boolean }> = new Map([
  ['prompt_tokens', { canonical: 'input_tokens', isCount: true }],
  ['completion_tokens', { canonical: 'output_tokens', isCount: true }],
  ['prompt_tokens_details', { canonical: 'input_tokens_details', isCount: false }],
  ['completion_tokens_details', { canonical: 'output_tokens_details', isCount: false }],
])

const UPPER = /[A-Z]/
const UPPER_ALL = /[A-Z]/g

function snakeCase(key: string): string {
  // Most providers already send snake_case: test before building a new string.
  return UPPER.test(key) ? key.replace(UPPER_ALL, (c) => `_${c.toLowerCase()}`) : key
}

/**
 * `{ prompt_tokens, completionTokens, prompt_tokens_details, ... }` ->
 * `{ input_tokens, output_tokens, input_tokens_details, ... }`, so a budget
 * reads the same keys whichever API the agent called; every other field is
 * kept, as JSON. A name the provider sent in the canonical form wins over its alias.
 */
export function normalizeTokenUsage(raw: unknown, onIssue?: ValueIssueHandler): TokenUsage | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null
  const out: TokenUsage = {}
  let aliased: TokenUsage | undefined
  for (const rawKey in raw) {
    if (!Object.hasOwn(raw, rawKey)) continue
    const value: unknown = (raw as Record<string, unknown>)[rawKey]
    if (value === undefined || value === null) continue
    const key = snakeCase(rawKey)
    const alias = TOKEN_ALIASES.get(key)
    if (alias === undefined || (alias.isCount && typeof value !== 'number')) out[key] = toJsonValue(value, onIssue)
    else (aliased ??= {})[alias.canonical] = toJsonValue(value, onIssue)
  }
  if (aliased === undefined) return out
  for (const [key, value] of Object.entries(aliased)) {
    const isCount = typeof value === 'number'
    if (isCount ? typeof out[key] !== 'number' : out[key] === undefined) out[key] = value
  }
  return out
}
