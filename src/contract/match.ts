/**
 * `matchToolContract()`: the tools a run offered the model against its
 * committed tool contract, written or compared as the update mode says
 * (the goldens' modes: `new` writes a missing contract, `all` rewrites it,
 * `none`, the default under CI, never writes). Every "write or not"
 * decision is in `matchToolContract`'s numbered steps.
 */
import { goldenIdentity } from '../golden/identity.js'
import { shownPath } from '../golden/messages.js'
import { resolveUpdateMode, UPDATE_MODES, type UpdateMode } from '../golden/update-mode.js'
import type { RedactOption } from '../redact/index.js'
import { contractFilePath, DEFAULT_TRACE_DIR, pieceRedactor, readTextOrNull, writeFileAtomic } from '../storage/index.js'
import { toolsOffered } from '../trace/tools-offered.js'
import type { JsonValue, ToolDefinition, Trace } from '../trace/types.js'
import { parseContract, renderContract } from './contract-file.js'
import { diffToolContracts } from './contract-diff.js'
import { countsText, formatContractDiff } from './format.js'
import { CHANGE_CLASSES, type ChangeClass, type ContractDiff } from './types.js'

export interface MatchToolContractOptions {
  /** Directory of traces; contracts are under `<traceDir>/contracts/`. Default: `".reagent"`. */
  traceDir?: string | undefined
  /** The update mode. Default: `resolveUpdateMode()` (REAGENT_UPDATE, then CI). */
  update?: UpdateMode | undefined
  /**
   * Classes of change that pass (they are still listed when something else fails). Default: none, so
   * every change fails, a reworded description too. @example { allow: ['compatible'] }
   */
  allow?: readonly ChangeClass[] | undefined
  /** Secrets removed from the tools before they are compared or written. Default: the built-in rules. */
  redact?: RedactOption | undefined
}

export interface MatchToolContractResult {
  pass: boolean
  /** `matched`, `written` (created), `updated` (mode `all`), `unchanged` (mode `all`, same bytes), `failed`, `missing` (none, and none written). */
  outcome: 'matched' | 'written' | 'updated' | 'unchanged' | 'failed' | 'missing'
  path: string
  update: UpdateMode
  /** The comparison with the contract; null when none was made. */
  diff: ContractDiff | null
  /** The tools the run offered, as the contract holds them. */
  tools: ToolDefinition[]
  message: string
}

const OPTIONS = ['traceDir', 'update', 'allow', 'redact']

function checkOptions(fn: string, options: MatchToolContractOptions): readonly ChangeClass[] {
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) throw new TypeError(`${fn}: unknown option "${key}". Valid options: ${OPTIONS.join(', ')}.`)
  }
  const { allow = [], update } = options
  if (!Array.isArray(allow) || allow.some((name) => !CHANGE_CLASSES.includes(name))) {
    throw new TypeError(`${fn}: option "allow" must be a list of ${CHANGE_CLASSES.map((name) => `"${name}"`).join(', ')}; got ${JSON.stringify(allow)}.`)
  }
  if (update !== undefined && !UPDATE_MODES.includes(update)) {
    throw new RangeError(`${fn}: option "update" must be one of "all", "new", "none"; got ${JSON.stringify(update)}.`)
  }
  return allow
}

/** The tools `trace` offered, redacted as its files are. */
function offeredTools(trace: Trace, redact: RedactOption | undefined): ToolDefinition[] {
  const tools = toolsOffered(trace)
  const redactor = pieceRedactor(redact)
  return redactor === undefined ? tools : (redactor.redact(tools as unknown as JsonValue) as unknown as ToolDefinition[])
}

/** How to accept the tools as they are now. */
const howToAccept = (at: string): string => `If the new tools are right, run the tests with vitest -u (or REAGENT_UPDATE=all), then review and commit ${at}.`

function failedMessage(name: string, at: string, diff: ContractDiff, allow: readonly ChangeClass[]): string {
  const failing = CHANGE_CLASSES.filter((name) => !allow.includes(name) && diff.changes.some((change) => change.class === name))
  // Only what does not break may be waved through: say how, naming the classes that failed.
  const hint = failing.includes('breaking')
    ? ''
    : ` To let ${failing.join(' and ')} changes pass, allow them: { allow: [${[...allow, ...failing].map((c) => `'${c}'`).join(', ')}] }.`
  return (
    `The tools "${name}" offers the model do not match its tool contract (${at}): ${countsText(diff)}.\n` +
    `${formatContractDiff(diff)}\n\n${howToAccept(at)}${hint}`
  )
}

/**
 * Compares the tools `trace` offered (`toolsOffered`) with its tool
 * contract, writing the contract when the update mode says so. Does not
 * throw on a mismatch: the result says whether it passed, and why. A
 * contract file that cannot be read is a `ContractFileError` naming it.
 *
 * @example
 * const result = matchToolContract(s.trace, { allow: ['compatible'] })
 * if (!result.pass) throw new Error(result.message)
 */
export function matchToolContract(trace: Trace, options: MatchToolContractOptions = {}, fn = 'matchToolContract()'): MatchToolContractResult {
  const allow = checkOptions(fn, options)
  const { traceDir = DEFAULT_TRACE_DIR, update = resolveUpdateMode(), redact } = options
  const identity = goldenIdentity(trace)
  const path = contractFilePath(identity, traceDir)
  const at = shownPath(path)
  const name = identity.name
  const tools = offeredTools(trace, redact)
  const text = readTextOrNull(path)
  const result = { path, update, tools, diff: null }
  const noTools = (): MatchToolContractResult => ({
    ...result,
    pass: false,
    outcome: 'failed',
    message:
      `Run "${name}" offered the model no tools that were recorded (its trace has no tool_sets), so there is no tool contract to write at ${at}. ` +
      `Match the contract of a run whose agent offers tools, recorded through a reagent-flow adapter.`,
  })
  // 1. No contract yet: write one, except where contracts are never written (CI):
  //    a contract first written by CI would pass without anyone reviewing it.
  //    An empty one is never written: a run without tools is a mistake to say.
  if (text === null) {
    if (update === 'none') {
      const message =
        `No tool contract for "${name}" at ${at}, and contracts are not written when the update mode is "none" (the default when CI is set). ` +
        `Record it locally (run the tests without CI, or with REAGENT_UPDATE=new) and commit ${at}.`
      return { ...result, pass: false, outcome: 'missing', message }
    }
    if (tools.length === 0) return noTools()
    writeFileAtomic(path, renderContract(name, tools))
    return { ...result, pass: true, outcome: 'written', message: `Tool contract for "${name}" written to ${at}. Review and commit it.` }
  }
  // 2. `all` takes the tools offered as the new contract; the same bytes are left alone.
  if (update === 'all') {
    if (tools.length === 0) return noTools()
    const rendered = renderContract(name, tools)
    if (rendered === text) return { ...result, pass: true, outcome: 'unchanged', message: `Tool contract for "${name}" at ${at} is up to date.` }
    writeFileAtomic(path, rendered)
    return { ...result, pass: true, outcome: 'updated', message: `Tool contract for "${name}" rewritten at ${at} (update mode "all"). Review and commit it.` }
  }
  // 3. `new` and `none` never change an existing contract: compare, and pass
  //    when every change is of a class the options allow.
  const diff = diffToolContracts(parseContract(path, text).tools, tools)
  const pass = diff.changes.every((change) => allow.includes(change.class))
  const allowed = diff.equal ? '' : ` (allowed: ${countsText(diff)})`
  const message = pass ? `The tools "${name}" offers the model match its tool contract (${at})${allowed}.` : failedMessage(name, at, diff, allow)
  return { ...result, diff, pass, outcome: pass ? 'matched' : 'failed', message }
}
