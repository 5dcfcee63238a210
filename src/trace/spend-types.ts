/** The shape of a run's spend (spend.ts computes it), apart so the viewer's page can name it without the code that computes it. */

/** What one part of a run spent. */
export interface RoleSpend {
  inputTokens: number
  outputTokens: number
  /** inputTokens + outputTokens. */
  tokens: number
  /** USD by the price table, of the calls it could price; null when it made calls with token usage and could price none. */
  usd: number | null
  /** Models that made calls with token usage and have no price in the table (`"(no model)"` for a call that names none), in the order met. */
  unpricedModels: string[]
}

export type SpendRole = 'agent' | 'user' | 'judge' | 'tools'

/** A run's spend, part by part, and in total. */
export type Spend = Record<SpendRole | 'total', RoleSpend>
