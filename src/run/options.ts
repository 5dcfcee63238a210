/**
 * The options of `session()` and their check: an unknown
 * option is a TypeError listing the valid ones, so a typo (`tracedir`) never
 * silently writes somewhere else.
 */
import { checkFaultsOption } from '../faults/faults-option.js'
import type { FaultsOptions } from '../faults/session-feature.js'
import type { LedgerOptions } from '../ledger/session-feature.js'
import { checkLimitsOption } from '../limits/limits-option.js'
import type { LimitsOptions } from '../limits/session-feature.js'
import { REPLAY_MODES } from '../replay/mode.js'
import type { ReplayOptions } from '../replay/session-feature.js'
import type { RecordingOptions } from '../session/options.js'
import type { GoldenOptions } from './golden-feature.js'

/** The options of `session()`: those of the recording and those of each feature, each documented where it is read. */
export interface SessionOptions extends RecordingOptions, ReplayOptions, FaultsOptions, LimitsOptions, LedgerOptions, GoldenOptions {}

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
