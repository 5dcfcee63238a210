/**
 * How a reagent-flow matcher answers vitest: `{ pass, message, actual, expected }`.
 *
 * vitest throws `message()` when `pass` disagrees with `.not`, and draws its
 * own diff from `actual` and `expected`. So a failed check returns the core
 * assertion's message (the agent stack trace) and its diff values, and a
 * passing one returns the message `.not` needs: what was unexpectedly true,
 * above the same agent stack trace.
 */
import { toTrace } from '../assert/arguments.js'
import { isReagentError, type AgentAssertionError } from '../errors/index.js'
import { formatStackTrace } from '../report/stack-trace.js'
import type { Trace } from '../trace/types.js'

export interface MatcherOutcome {
  pass: boolean
  message: () => string
  actual?: unknown
  expected?: unknown
}

/** What bad-argument messages call the value given to `expect()`. */
export const RECEIVED = 'the value given to expect()'

/** The trace of what was given to `expect()`: a Trace, a Session, or anything holding a `trace`. */
export function receivedTrace(matcher: string, received: unknown): Trace {
  return toTrace(matcher, received, RECEIVED)
}

function isAssertionFailure(error: unknown): error is AgentAssertionError {
  return isReagentError(error) && error.name === 'AssertionError'
}

/** The outcome of a failed core assertion: its message, and its diff when it has one. */
function failedWith(error: AgentAssertionError): MatcherOutcome {
  return { pass: false, message: () => error.message, ...(error.showDiff ? { actual: error.actual, expected: error.expected } : {}) }
}

/**
 * A core assertion run as a matcher. `negated` is the message for `.not`,
 * built only when the assertion passed and `.not` turns that into a failure.
 */
export function outcomeOf(check: () => void, negated: () => string): MatcherOutcome {
  try {
    check()
  } catch (error) {
    if (isAssertionFailure(error)) return failedWith(error)
    throw error
  }
  return { pass: true, message: negated }
}

/**
 * The message of a core assertion that is known to fail here: the opposite
 * of a check that passed, as `.not` needs it (toHaveCalledTool's is
 * assertNeverCalled's failure). Empty when the assertion passes after all.
 */
export function failureMessage(check: () => void): string {
  try {
    check()
  } catch (error) {
    if (isAssertionFailure(error)) return error.message
    throw error
  }
  return ''
}

/** A failure of the matcher's own making, drawn like the core's: the headline, then the agent stack trace. */
export function describeFailure(trace: Trace, headline: string, details: { tool?: string | undefined; causes?: string[] } = {}): string {
  const stack = formatStackTrace(trace, {
    assertion: headline,
    ...(details.tool === undefined ? {} : { tool: details.tool }),
    ...(details.causes === undefined ? {} : { causes: details.causes }),
  })
  return `${headline}\n\n${stack}`
}

/**
 * Runs a core check under the matcher's name, so that a bad argument reads
 * `toHaveCalledToolTimes(): max (1) is less than min (3).` and not as a call
 * of a core function the test never made.
 */
export function underMatcherName<T>(matcher: string, coreFunction: string, check: () => T): T {
  try {
    return check()
  } catch (error) {
    const prefix = `${coreFunction}(): `
    if ((error instanceof TypeError || error instanceof RangeError) && error.message.startsWith(prefix)) {
      const Kind = error instanceof RangeError ? RangeError : TypeError
      throw new Kind(`${matcher}(): ${error.message.slice(prefix.length)}`)
    }
    throw error
  }
}
