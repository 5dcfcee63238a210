/**
 * The options of `session()`, documented once, and their check: an unknown
 * option is a TypeError listing the valid ones, so a typo (`tracedir`) never
 * silently writes somewhere else.
 */
import { checkFaultsOption, type Fault } from '../faults/faults-option.js'
import type { LedgerOption } from '../ledger/session-reporter.js'
import { REPLAY_MODES, type ReplayMode } from '../replay/mode.js'
import { checkLimitsOption, type Limits } from '../limits/limits-option.js'
import type { RedactOption } from '../redact/index.js'

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
  /** Write the trace file. `false` keeps it in memory only (and no journal is kept). Default: true. */
  save?: boolean
  /**
   * Keep a journal beside the trace while the session is open, so a run
   * that never finishes (a killed process, a test that timed out) is still
   * on disk. `false` saves the appends (a crash then loses the run). Default: true.
   */
  journal?: boolean
  /**
   * Report the run to a run ledger (`reagent-flow serve`): run.begin when the
   * session opens, run.complete and the trace when it closes. A ledger that is
   * down warns once and never fails the test. Default: `REAGENT_LEDGER_URL`
   * (with `REAGENT_LEDGER_TOKEN`), if set; `false`: never.
   * @example { ledger: 'http://127.0.0.1:4319' }
   */
  ledger?: LedgerOption
  /**
   * Record model calls, or answer them from the recording instead of calling
   * the model (README, "Record and replay"): `'off'`, `'record'` (call the
   * model and save the calls as the run's recording), `'replay'` (never call
   * the model; a call the recording cannot answer fails), `'auto'` (answer
   * what is recorded, record the rest; under `CI`, as `'replay'`).
   * `REAGENT_REPLAY` overrides it. Default: `'off'` (a session opened inside
   * another: the outer one's).
   * @example { replay: 'auto' }
   */
  replay?: ReplayMode
  /** A replayed session that completes with recorded calls unused fails with `UnusedRecordingError` (instead of a warning). Default: false. */
  strict?: boolean
  /**
   * `traceTool` tools are answered from the recording too (for tools that
   * call paid or external services), in `'replay'` and `'auto'`. Default:
   * false (tools run for real in every mode).
   */
  replayTools?: boolean
  /**
   * Failures to test how the agent copes. A tool fault: a call of a
   * `traceTool` tool named by it throws its error, and its turn is marked
   * `injected: true`. A model fault (`llm: true`): the model's calls fail
   * the way the provider fails them (a 429, a 5xx, a timeout), so the SDK's
   * own retries and error classes run; each failed attempt is a turn whose
   * LLM call says `injected: true`. Sessions opened inside this one share
   * its faults. Default: none. (README, "Faults and limits".)
   * @example { faults: [{ tool: 'charge_card', error: 'card declined', times: 1 }] }
   * @example { faults: [{ llm: true, status: 429, times: 1 }] }
   */
  faults?: readonly Fault[]
  /**
   * A runaway guard: once the run has gone past one of these, its next model
   * or tool call throws `BudgetExceededError`, and the run is recorded as
   * `cancelled` with the limit as its reason. Sessions opened inside this
   * one count toward its limits. Default: none. (README, "Faults and limits".)
   * @example { limits: { turns: 10, tokens: 20_000, usd: 0.5, seconds: 60 } }
   */
  limits?: Limits
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
  'journal',
  'ledger',
  'replay',
  'strict',
  'replayTools',
  'faults',
  'limits',
])

/** Options whose parts are checked one by one, each error naming the part at fault. */
const DEEP_CHECKS: Readonly<Record<string, (value: unknown) => unknown>> = {
  faults: checkFaultsOption,
  limits: checkLimitsOption,
}

/** The type each option must have; a wrong one would write a file our own loader rejects, so it is refused here. */
const OPTION_KINDS: Readonly<Record<string, { accepts: (value: unknown) => boolean; expected: string; quotesStrings?: boolean }>> = {
  traceDir: { accepts: (v) => typeof v === 'string' && v !== '', expected: 'a non-empty string (a directory path)' },
  golden: { accepts: (v) => typeof v === 'boolean', expected: 'true or false' },
  parentTraceId: { accepts: (v) => v === null || (typeof v === 'string' && v !== ''), expected: 'a trace_id (a non-empty string) or null' },
  handoffContext: { accepts: (v) => v === null || isPlainObject(v), expected: 'an object or null' },
  metadata: { accepts: isPlainObject, expected: 'an object' },
  sessionId: { accepts: (v) => typeof v === 'string', expected: 'a string' },
  userId: { accepts: (v) => typeof v === 'string', expected: 'a string' },
  redact: {
    accepts: (v) => v === false || Array.isArray(v) || isPlainObject(v),
    expected: 'false, an array of key names and patterns, or { keys, values, defaults }',
  },
  save: { accepts: (v) => typeof v === 'boolean', expected: 'true or false' },
  journal: { accepts: (v) => typeof v === 'boolean', expected: 'true or false' },
  // Its URL is checked where it is resolved (ledger/session-reporter.ts), with an example of the forms.
  ledger: { accepts: (v) => v === false || typeof v === 'string' || isPlainObject(v), expected: "'http://127.0.0.1:4319', { url, token }, or false" },
  replay: {
    accepts: (v) => (REPLAY_MODES as readonly unknown[]).includes(v),
    expected: REPLAY_MODES.map((mode) => `'${mode}'`)
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1'),
    quotesStrings: true,
  },
  strict: { accepts: (v) => typeof v === 'boolean', expected: 'true or false' },
  replayTools: { accepts: (v) => typeof v === 'boolean', expected: 'true or false' },
}

function isPlainObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'number') return `the number ${String(value)}`
  return typeof value
}

/** Checks the options of `session()`; `caller` and `ownOptions` are those of a function that takes them with options of its own (`repeat()`). */
export function checkOptions(
  options: unknown,
  { caller = 'session()', ownOptions = [] }: { caller?: string; ownOptions?: readonly string[] } = {},
): SessionOptions {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${caller} options must be an object, got ${options === null ? 'null' : typeof options}.`)
  }
  for (const key of Object.keys(options)) {
    if (ownOptions.includes(key)) continue
    if (!OPTION_NAMES.has(key)) {
      throw new TypeError(`Unknown ${caller} option "${key}". Valid options: ${[...OPTION_NAMES, ...ownOptions].join(', ')}.`)
    }
    const value: unknown = (options as Record<string, unknown>)[key]
    const kind = OPTION_KINDS[key]
    if (value !== undefined && kind !== undefined && !kind.accepts(value)) {
      const got = kind.quotesStrings === true && typeof value === 'string' ? `the string ${JSON.stringify(value)}` : describe(value)
      throw new TypeError(`session() option "${key}" must be ${kind.expected}, got ${got}.`)
    }
    if (value !== undefined) DEEP_CHECKS[key]?.(value)
  }
  return options as SessionOptions
}

/** The internal option `resume()` opens its session with: the run resumes the last unfinished run of its name (replay/resume.ts). */
export const RESUME: unique symbol = Symbol.for('reagent-flow.resume')

/** The options of a session, with the internal option of `resume()`. */
export type ResumableOptions = SessionOptions & { [RESUME]?: boolean }

/** True for the options of a session `resume()` opened. */
export function isResume(options: ResumableOptions): boolean {
  return options[RESUME] === true
}
