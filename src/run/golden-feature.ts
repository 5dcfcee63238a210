/**
 * `golden: true` as a feature of the session: a run that completed is
 * marked `golden: true` in its file from the start (`approve --all`
 * approves the runs that asked for their golden), then compared with its
 * golden once the file is written, through the same engine and update mode
 * as `toMatchGolden()` (written when missing, compared otherwise; under CI
 * never written). Only a run that finished is a baseline: a failed or
 * cut-short one is never compared or written. A mismatch is kept for
 * `session()` to reject with. Here, above the golden engine (src/golden/,
 * which judges traces and knows no session).
 */
import { AgentAssertionError } from '../errors/index.js'
import { matchGolden, type MatchGoldenResult, resolveUpdateMode } from '../golden/index.js'
import { FeatureKey, internals } from '../session/internals.js'
import type { RecordingOptions } from '../session/options.js'
import type { Session, SessionFeature } from '../session/session.js'
import type { TestScope } from '../session/test-scope.js'

export interface GoldenOptions {
  /** Write the trace as the golden baseline (`<traceDir>/golden/<name>.trace.json`, normal form). Default: false. */
  golden?: boolean
}

/** A `golden: true` comparison that failed: session() rejects with it (unless the agent's own error comes first). */
const GOLDEN_FAILURE = new FeatureKey<AgentAssertionError>('golden failure')

export const goldenFeature: SessionFeature = {
  attach(session: Session, options: RecordingOptions & GoldenOptions): void {
    if (options.golden !== true) return
    const inner = session[internals]
    inner.lifecycle.on('closing', (trace, status) => {
      if (status === 'completed') trace.golden = true
    })
    inner.lifecycle.on('closed', (trace, status) => {
      if (status !== 'completed') return
      const scope = inner.testScope
      const result = matchGolden(trace, {
        traceDir: inner.location.traceDir,
        redact: options.redact,
        update: resolveUpdateMode({ vitestUpdate: scope?.update() }),
        runPath: inner.path,
      })
      scope?.recordGolden({ path: result.path, outcome: result.outcome })
      announceWritten(result, scope)
      if (result.pass) return
      inner.set(
        GOLDEN_FAILURE,
        new AgentAssertionError(result.message, {
          traceName: trace.name,
          assertion: result.outcome === 'missing' ? `"${trace.name}" has no golden baseline` : `"${trace.name}" does not match its golden baseline`,
        }),
      )
    })
  },
}

/** The failed `golden: true` comparison of `session`, if any (session() rejects with it). */
export function goldenFailureOf(session: Session): AgentAssertionError | undefined {
  return session[internals].get(GOLDEN_FAILURE)
}

/**
 * A written golden passes, but someone has to review and commit it: says so
 * in the test's output, unless the run's reporter lists it at the end.
 */
export function announceWritten(result: MatchGoldenResult, scope: TestScope | undefined): void {
  if (result.written === null || result.written === 'unchanged') return
  if (scope?.goldensSummarized() === true) return
  console.info(result.message)
}
