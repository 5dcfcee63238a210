/**
 * The options the core of recording reads (where the files go, what the
 * trace says about the run, what is redacted, whether files are written),
 * documented once. Each feature documents its own options next to it
 * (replay, faults, limits, ledger, golden); run/options.ts joins them into
 * the `SessionOptions` of `session()` and checks them.
 */
import type { RedactOption } from '../redact/index.js'

export interface RecordingOptions {
  /** Where trace files go. Default: `".reagent"`. @example { traceDir: 'test/.traces' } */
  traceDir?: string
  /**
   * The parent run of this one (multi-agent chains). Default: the session this
   * one was opened inside, if any. `null` opts out of that.
   */
  parentTraceId?: string | null
  /** What the parent handed over to this agent; checked by the handoff assertions. Default: null. */
  handoffContext?: Readonly<Record<string, unknown>> | null
  /** Free-form facts about the run (goal, suite, budget). Default: `{}`. @example { goal: 'refund order 42' } */
  metadata?: Readonly<Record<string, unknown>>
  /** Your application's conversation or session id, kept on the trace. */
  sessionId?: string
  /** Your application's user id, kept on the trace. */
  userId?: string
  /**
   * Secrets to remove from the written file (the in-memory trace keeps them).
   * Default: keys named with secret words (token, password, api key, ...),
   * secret-shaped values, JSON inside strings, the environment's secret
   * values (README, "Redaction"). `false`: none.
   * @example { redact: ['ssn', /^x-internal-/] }
   */
  redact?: RedactOption
  /** Write the trace file. `false` keeps it in memory only (and no journal is kept). Default: true. */
  save?: boolean
  /**
   * Keep a journal beside the trace while the session is open, so a run
   * that never finishes (a killed process, a test that timed out) is still
   * on disk. `false` saves the appends (a crash then loses the run). Default: true.
   */
  journal?: boolean
}

/** The internal option `resume()` opens its session with: the run resumes the last unfinished run of its name (replay/resume.ts). */
export const RESUME: unique symbol = Symbol.for('reagent-flow.resume')

/** True for the options of a session `resume()` opened. */
export function isResume(options: RecordingOptions & { [RESUME]?: boolean }): boolean {
  return options[RESUME] === true
}

/**
 * The internal option of a helper run (a simulated user, the simulated tools'
 * model, a judge: session/helper-runs.ts): opened inside the agent's session,
 * it takes its replay options, but not its `limits` or `faults`, which are
 * about the agent: the user's tokens are not the agent's budget, and a fault
 * meant for the agent's second model call must not land on the user's.
 */
export const HELPER_RUN: unique symbol = Symbol.for('reagent-flow.helper-run')

/** True for the options of a helper run. */
export function isHelperRun(options: RecordingOptions & { [HELPER_RUN]?: boolean }): boolean {
  return options[HELPER_RUN] === true
}
