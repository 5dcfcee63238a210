/**
 * The `limits` session option, a runaway guard: what it accepts, and its
 * check. Each limit is optional; a run that goes past any of them is stopped
 * at its next model or tool call (see run-guard.ts).
 */
import type { LimitName } from '../errors/index.js'

/**
 * How far a run may go. Prices for `usd` come from the built-in price table
 * (with `REAGENT_PRICES` over it).
 *
 * @example { turns: 10, tokens: 20_000, usd: 0.5, seconds: 60 }
 */
export interface Limits {
  /** Model calls (turns) the run may make; the next one throws. */
  turns?: number
  /** Input and output tokens the run's model calls may use, as they report them. */
  tokens?: number
  /** What the run's model calls may cost, in US dollars. */
  usd?: number
  /** How long the run may take, from the start of its session. */
  seconds?: number
}

export const LIMIT_NAMES: readonly LimitName[] = ['turns', 'tokens', 'usd', 'seconds']

const RULES: Readonly<Record<LimitName, { isWhole: boolean; what: string }>> = {
  turns: { isWhole: true, what: 'model calls the run may make' },
  tokens: { isWhole: true, what: 'tokens the run may use' },
  usd: { isWhole: false, what: 'US dollars the run may cost' },
  seconds: { isWhole: false, what: 'seconds the run may take' },
}

const FORM = '{ turns?, tokens?, usd?, seconds? }, e.g. { turns: 10, usd: 0.5 }'

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`
  if (typeof value === 'number') return `the number ${String(value)}`
  return typeof value
}

/** Checks the `limits` option: a TypeError (or RangeError) naming the limit at fault and the valid forms. */
export function checkLimitsOption(value: unknown): Limits {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`session() option "limits" must be ${FORM}; got ${describe(value)}.`)
  }
  for (const [key, limit] of Object.entries(value)) {
    const rule = RULES[key as LimitName]
    if (rule === undefined)
      throw new TypeError(`session() option "limits" has an unknown limit "${key}". Valid limits: ${LIMIT_NAMES.join(', ')}; e.g. { turns: 10, usd: 0.5 }.`)
    if (limit === undefined) continue
    const kind = rule.isWhole ? 'a whole number above 0' : 'a number above 0'
    if (typeof limit !== 'number' || Number.isNaN(limit))
      throw new TypeError(`session() option "limits.${key}" must be ${kind} (${rule.what}), got ${describe(limit)}.`)
    if (!(limit > 0) || !Number.isFinite(limit) || (rule.isWhole && !Number.isInteger(limit))) {
      throw new RangeError(`session() option "limits.${key}" must be ${kind} (${rule.what}), got ${String(limit)}.`)
    }
  }
  return value as Limits
}
