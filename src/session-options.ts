/**
 * The options of `session()`, documented once, and their check: an unknown
 * option is a TypeError listing the valid ones, so a typo (`tracedir`) never
 * silently writes somewhere else.
 */
import type { LedgerOption } from './ledger/session-reporter.js'
import type { RedactOption } from './trace/redact.js'

export interface SessionOptions {
  /** Where trace files go. Default: `".reagent"`. @example { traceDir: 'test/.traces' } */
  traceDir?: string
  /** Write the trace as the golden baseline (`<traceDir>/golden/<name>.trace.json`, normal form). Default: false. */
  golden?: boolean
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
  /** Write the trace file. `false` keeps it in memory only. Default: true. */
  save?: boolean
  /**
   * Report the run to a run ledger (`reagent-flow serve`): run.begin when the
   * session opens, run.complete and the trace when it closes. A ledger that is
   * down warns once and never fails the test. Default: `REAGENT_LEDGER_URL`
   * (with `REAGENT_LEDGER_TOKEN`), if set; `false`: never.
   * @example { ledger: 'http://127.0.0.1:4319' }
   */
  ledger?: LedgerOption
}

const OPTION_NAMES: ReadonlySet<string> = new Set([
  'traceDir',
  'golden',
  'parentTraceId',
  'handoffContext',
  'metadata',
  'sessionId',
  'userId',
  'redact',
  'save',
  'ledger',
])

export function checkOptions(options: unknown): SessionOptions {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`session() options must be an object, got ${options === null ? 'null' : typeof options}.`)
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.has(key)) {
      throw new TypeError(`Unknown session() option "${key}". Valid options: ${[...OPTION_NAMES].join(', ')}.`)
    }
  }
  return options as SessionOptions
}
