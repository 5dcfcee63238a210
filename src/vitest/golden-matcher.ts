/**
 * `toMatchGolden()`: the recorded run against its golden baseline, written
 * or compared as the update mode says (src/golden/ decides; this file only
 * finds out what vitest was asked for and where the run belongs, and
 * reports the result the way vitest expects).
 *
 * Inside a test, the golden belongs to the test file, as snapshots do:
 * `<root>/<traceDir>/golden/<test file>/<test name>.trace.json`.
 *
 * The comparison is synchronous: a failure fails the test at the line of the
 * assertion, awaited or not, so a missing `await` can never turn a mismatch
 * into a passing test with an unhandled rejection.
 */
import { resolve } from 'node:path'
import type { MatcherState } from 'vitest'
import { currentTestScope } from '../session/context.js'
import { resolveDiffOptions } from '../diff/options.js'
import { matchGolden, resolveUpdateMode, type MatchGoldenOptions } from '../golden/index.js'
import { Session } from '../session/session.js'
import { internals } from '../session/internals.js'
import { DEFAULT_TRACE_DIR } from '../storage/index.js'
import type { RedactOption } from '../redact/index.js'
import { announceWritten } from '../run/golden-feature.js'
import { receivedTrace, type MatcherOutcome } from './outcome.js'

/** Options of `toMatchGolden`: the `diffTraces` options, and where the golden lives. */
export interface GoldenMatcherOptions extends Omit<MatchGoldenOptions, 'update' | 'store' | 'runPath'> {
  /**
   * Directory of traces; goldens are under `<traceDir>/golden/`. Default:
   * the session's `traceDir`, else `".reagent"` (inside vitest, resolved against its root).
   * @example { traceDir: 'test/.traces' }
   */
  traceDir?: string | undefined
  /** Secrets removed from the golden. Default: the session's `redact`, else the built-in rules. */
  redact?: RedactOption | undefined
}

const OWN_OPTIONS = ['traceDir', 'redact']

/** What a Session knows that a Trace does not: where its files are, and how they are redacted. */
function sessionSettings(received: unknown): { traceDir?: string; redact?: RedactOption; path?: string } {
  if (received === null || typeof received !== 'object' || !('traceDir' in received) || typeof received.traceDir !== 'string') return {}
  const redact = 'redact' in received ? (received.redact as RedactOption | undefined) : undefined
  const path = 'path' in received && typeof received.path === 'string' ? received.path : undefined
  return { traceDir: received.traceDir, ...(redact === undefined ? {} : { redact }), ...(path === undefined ? {} : { path }) }
}

/** `-u` is vitest's one explicit update request; its other states (new, none under CI) are left to REAGENT_UPDATE and CI. */
function vitestUpdate(state: MatcherState): 'all' | undefined {
  return state.snapshotState?.snapshotUpdateState === 'all' ? 'all' : undefined
}

export function toMatchGolden(this: MatcherState, received: unknown, options: GoldenMatcherOptions = {}): MatcherOutcome {
  const name = 'toMatchGolden'
  if (this.isNot) {
    throw new TypeError(
      `${name}() cannot be used with .not: a run either matches its golden or is written as the golden. ` +
        `To check that two traces differ, use expect(diffTraces(a, b).equal).toBe(false).`,
    )
  }
  const trace = receivedTrace(name, received)
  resolveDiffOptions(options, `${name}()`, OWN_OPTIONS)
  // The run's file says it has a golden (`golden: true`), for `reagent-flow approve --all`.
  if (received instanceof Session) received[internals].askGolden()
  const session = sessionSettings(received)
  const scope = currentTestScope()
  const given = options.traceDir ?? session.traceDir ?? DEFAULT_TRACE_DIR
  const result = matchGolden(trace, {
    ...options,
    traceDir: scope === undefined ? given : resolve(scope.root, given),
    redact: options.redact ?? session.redact,
    update: resolveUpdateMode({ vitestUpdate: vitestUpdate(this) }),
    runPath: session.path,
  })
  scope?.recordGolden({ path: result.path, outcome: result.outcome })
  announceWritten(result, scope)
  // No actual/expected: our aligned diff is the whole story; vitest's would show messages and renumbered ids.
  return { pass: result.pass, message: () => result.message }
}
