/**
 * The words of a stopped run: the `BudgetExceededError` message and the
 * trace's `interruption_reason`, written here beside the limits because how
 * each limit is counted (model calls, tokens used, dollars spent, seconds
 * passed) is the limits' knowledge, not the error's.
 */
import type { LimitName, StoppedCall } from '../errors/budget-exceeded-error.js'

/** A run past its limit, in words: `message` for the error, `reason` for the trace. */
export interface BudgetWords {
  message: string
  reason: string
}

function limitAmount(limit: LimitName, value: number): string {
  switch (limit) {
    case 'turns':
      return value === 1 ? '1 turn' : `${value} turns`
    case 'tokens':
      return `${value} tokens`
    case 'usd':
      return `$${value}`
    case 'seconds':
      return value === 1 ? '1 second' : `${value} seconds`
  }
}

/** The figure that went past the limit, in words; usd and seconds rounded for reading (the exact figure is `actual`). */
function limitFigure(limit: LimitName, actual: number): string {
  switch (limit) {
    case 'turns':
      return `${actual} model calls`
    case 'tokens':
      return `${actual} tokens used`
    case 'usd':
      return `$${Number(actual.toPrecision(3))} spent`
    case 'seconds':
      return `${Number(actual.toFixed(2))} seconds passed`
  }
}

const STOPPED_WHAT: Readonly<Record<StoppedCall['kind'], string>> = {
  model: 'so the model call was not made',
  'logged-model': 'so the run was stopped at the model call just logged',
  tool: 'so tool',
}

const ADVICE: Readonly<Record<LimitName, string>> = {
  turns: 'kept going',
  tokens: 'used so many',
  usd: 'cost so much',
  seconds: 'took so long',
}

/** What happened, which session and limit, and how to fix it; and the same in a few words for `interruption_reason`. */
export function budgetWords(sessionName: string, limit: LimitName, max: number, actual: number, stopped: StoppedCall): BudgetWords {
  const what = stopped.kind === 'tool' ? `${STOPPED_WHAT.tool} "${stopped.tool}" was not run` : STOPPED_WHAT[stopped.kind]
  return {
    message:
      `Session "${sessionName}" went past its limit of ${limitAmount(limit, max)} (limits.${limit}: ${limitFigure(limit, actual)}), ${what}. ` +
      `Raise limits.${limit}, or look at the trace for why the agent ${ADVICE[limit]}.`,
    reason: `limits.${limit} of ${limitAmount(limit, max)} passed (${limitFigure(limit, actual)})`,
  }
}
