/**
 * `assertToolContract(s)` and what `toMatchToolContract()` shares with it:
 * the tools a run offered the model against its tool contract (src/contract/
 * decides), placed like a golden. Inside a vitest test the contract belongs to
 * the test file (`<root>/<traceDir>/contracts/<test file>/<test name>.tools.json`)
 * and the outcome is told to the test runner for the reporter's summary.
 */
import { resolve } from 'node:path'
import { toTrace } from '../assert/arguments.js'
import { countsText, matchToolContract, type MatchToolContractOptions, type MatchToolContractResult } from '../contract/index.js'
import { AgentAssertionError } from '../errors/index.js'
import { resolveUpdateMode } from '../golden/index.js'
import type { RedactOption } from '../redact/index.js'
import { currentTestScope } from '../session/context.js'
import { DEFAULT_TRACE_DIR } from '../storage/index.js'
import type { TraceSource } from '../assert/arguments.js'

/** Options of `toMatchToolContract` and `assertToolContract`. */
export interface ToolContractOptions extends Omit<MatchToolContractOptions, 'update'> {
  /**
   * Directory of traces; contracts are under `<traceDir>/contracts/`. Default:
   * the session's `traceDir`, else `".reagent"` (inside vitest, resolved against its root).
   */
  traceDir?: string | undefined
  /** Secrets removed from the tools. Default: the session's `redact`, else the built-in rules. */
  redact?: RedactOption | undefined
}

const OPTIONS = ['allow', 'traceDir', 'redact']

/** What a Session knows that a Trace does not: its trace directory and redaction. */
function sessionSettings(received: unknown): { traceDir?: string; redact?: RedactOption } {
  if (received === null || typeof received !== 'object' || !('traceDir' in received) || typeof received.traceDir !== 'string') return {}
  const redact = 'redact' in received ? (received.redact as RedactOption | undefined) : undefined
  return { traceDir: received.traceDir, ...(redact === undefined ? {} : { redact }) }
}

/**
 * The run `received` against its tool contract, under the update mode
 * (`vitestUpdate`: `'all'` under `vitest -u`), told to the test runner; a
 * contract written is announced in the test's output unless the reporter lists it.
 */
export function checkToolContract(fn: string, received: unknown, options: ToolContractOptions, vitestUpdate: 'all' | undefined): MatchToolContractResult {
  // The update mode is vitest's and the environment's to say, not an option here.
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) throw new TypeError(`${fn}(): unknown option "${key}". Valid options: ${OPTIONS.join(', ')}.`)
  }
  const trace = toTrace(fn, received, fn === 'toMatchToolContract' ? 'the value given to expect()' : 'the first argument')
  const session = sessionSettings(received)
  const scope = currentTestScope()
  const given = options.traceDir ?? session.traceDir ?? DEFAULT_TRACE_DIR
  const result = matchToolContract(
    trace,
    {
      ...options,
      traceDir: scope === undefined ? given : resolve(scope.root, given),
      redact: options.redact ?? session.redact,
      update: resolveUpdateMode({ vitestUpdate: vitestUpdate ?? scope?.update() }),
    },
    `${fn}()`,
  )
  scope?.recordContract({ path: result.path, outcome: result.outcome })
  if ((result.outcome === 'written' || result.outcome === 'updated') && scope?.goldensSummarized() !== true) console.info(result.message)
  return result
}

/**
 * Throws `AgentAssertionError` when the tools the run offered the model
 * differ from its tool contract in a class of change not in `allow` (by
 * default, any change: a reworded description too). A missing contract is
 * written (never under CI, where it fails); `vitest -u` or
 * `REAGENT_UPDATE=all` rewrites it. Returns the comparison.
 *
 * @example
 * assertToolContract(s, { allow: ['compatible'] })
 */
export function assertToolContract(run: TraceSource, options: ToolContractOptions = {}): MatchToolContractResult {
  const result = checkToolContract('assertToolContract', run, options, undefined)
  if (result.pass) return result
  const name = toTrace('assertToolContract', run).name
  const assertion =
    result.outcome === 'missing'
      ? `"${name}" has no tool contract`
      : result.diff === null
        ? `"${name}" offered no tools`
        : `"${name}" does not match its tool contract (${countsText(result.diff)})`
  throw new AgentAssertionError(result.message, { traceName: name, assertion })
}
