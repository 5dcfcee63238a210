/**
 * Token usage in one vocabulary for both APIs. Chat completions say
 * `prompt_tokens`/`completion_tokens` with `*_details`; the Responses API
 * says `input_tokens`/`output_tokens`. Traces use the latter, so a budget
 * assertion reads the same keys whichever API the agent called; every other
 * field the provider sends (totals, cached and reasoning details) is kept.
 */

const RENAMED: Readonly<Record<string, string>> = {
  prompt_tokens: 'input_tokens',
  completion_tokens: 'output_tokens',
  prompt_tokens_details: 'input_tokens_details',
  completion_tokens_details: 'output_tokens_details',
}

export function normalizeUsage(usage: unknown): Record<string, unknown> | null {
  if (usage === null || typeof usage !== 'object' || Array.isArray(usage)) return null
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(usage)) {
    if (value === undefined || value === null) continue
    out[RENAMED[key] ?? key] = value
  }
  return out
}
