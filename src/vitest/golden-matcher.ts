/**
 * `toMatchGolden()`: the recorded run against its golden baseline,
 * `<traceDir>/golden/<name>.trace.json`, written or compared as the update
 * mode says (golden.ts decides; this file only finds out what vitest was
 * asked for and reports the result the way vitest expects).
 */
import type { MatcherState } from 'vitest'
import { resolveDiffOptions } from '../diff/options.js'
import { matchGolden, resolveUpdateMode, type MatchGoldenOptions } from '../golden/index.js'
import type { RedactOption } from '../trace/redact.js'
import { receivedTrace, type MatcherOutcome } from './outcome.js'

/** Options of `toMatchGolden`: the `diffTraces` options, and where the golden lives. */
export interface GoldenMatcherOptions extends Omit<MatchGoldenOptions, 'update' | 'store'> {
  /**
   * Directory of traces; the golden is `<traceDir>/golden/<name>.trace.json`.
   * Default: the session's `traceDir`, else `".reagent"`.
   * @example { traceDir: 'test/.traces' }
   */
  traceDir?: string | undefined
  /** Secrets removed from the golden. Default: the session's `redact`, else the built-in secret shapes. */
  redact?: RedactOption | undefined
}

const OWN_OPTIONS = ['traceDir', 'redact']

/** The `traceDir` and `redact` a Session was opened with; a Trace has none. */
function sessionSettings(received: unknown): { traceDir?: string; redact?: RedactOption } {
  if (received === null || typeof received !== 'object' || !('traceDir' in received) || typeof received.traceDir !== 'string') return {}
  const redact = 'redact' in received ? (received.redact as RedactOption | undefined) : undefined
  return { traceDir: received.traceDir, ...(redact === undefined ? {} : { redact }) }
}

/** `-u` is vitest's one explicit update request; its other states (new, none under CI) are left to REAGENT_UPDATE and CI. */
function vitestUpdate(state: MatcherState): 'all' | undefined {
  return state.snapshotState?.snapshotUpdateState === 'all' ? 'all' : undefined
}

export async function toMatchGolden(this: MatcherState, received: unknown, options: GoldenMatcherOptions = {}): Promise<MatcherOutcome> {
  const name = 'toMatchGolden'
  if (this.isNot) {
    throw new TypeError(
      `${name}() cannot be used with .not: a run either matches its golden or is written as the golden. ` +
        `To check that two traces differ, use expect(diffTraces(a, b).equal).toBe(false).`,
    )
  }
  const trace = receivedTrace(name, received)
  resolveDiffOptions(options, `${name}()`, OWN_OPTIONS)
  const session = sessionSettings(received)
  const result = matchGolden(trace, {
    ...options,
    traceDir: options.traceDir ?? session.traceDir,
    redact: options.redact ?? session.redact,
    update: resolveUpdateMode({ vitestUpdate: vitestUpdate(this) }),
  })
  // A written golden passes, but someone has to review and commit it: say so in the test's output.
  if (result.written === 'created' || result.written === 'updated') console.info(result.message)
  const failedComparison = !result.pass && result.diff !== null
  return {
    pass: result.pass,
    message: () => result.message,
    ...(failedComparison ? { actual: result.actual, expected: result.expected } : {}),
  }
}
