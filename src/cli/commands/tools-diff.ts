/** `reagent-flow tools diff <a> <b>`: the tools offered by two runs or contracts, compared as toMatchToolContract() compares them. */
import { CHANGE_CLASSES, countsText, diffToolContracts, formatContractDiff, parseContract, type ChangeClass, type ContractDiff } from '../../contract/index.js'
import { TraceNotFoundError, UsageError } from '../../errors/index.js'
import { plural } from '../../report/format-value.js'
import { CONTRACT_FILE_SUFFIX, isFile, loadTrace, readTextOrNull } from '../../storage/index.js'
import { toolsOffered } from '../../trace/tools-offered.js'
import type { ToolDefinition } from '../../trace/types.js'
import { EXIT_CHECK_FAILED, EXIT_OK, type Command, type CommandContext, type CommandInput } from '../command.js'
import { resolveRun } from '../resolve.js'

/** `tools diff --json` */
export interface ToolsDiffOutput {
  /** The file of `<a>` (a contract, or a run's trace file), and of `<b>`. */
  expected: string
  actual: string
  diff: ContractDiff
  /** Whether a change of a class given to --fail was found (the exit code is then 1). */
  failed: boolean
}

/** The classes of --fail (repeated, or comma-separated); `breaking` when not given. */
function failingClasses(input: CommandInput): ChangeClass[] {
  const given = ((input.options.fail ?? []) as string[]).flatMap((item) => item.split(',')).map((item) => item.trim())
  if (given.length === 0) return ['breaking']
  for (const name of given) {
    if (!(CHANGE_CLASSES as readonly string[]).includes(name)) {
      throw new UsageError(`--fail takes ${CHANGE_CLASSES.join(', ')} (repeated, or separated with commas); got ${JSON.stringify(name)}.`)
    }
  }
  return given as ChangeClass[]
}

/** Whether the file `path` is a tool contract: named like one, or holding a `contract_version`. */
function isContractFile(path: string, text: string): boolean {
  if (path.endsWith(CONTRACT_FILE_SUFFIX)) return true
  try {
    const value = JSON.parse(text) as unknown
    return value !== null && typeof value === 'object' && 'contract_version' in value
  } catch {
    return false
  }
}

/** The tools `ref` holds: a contract file's, or those a run offered (a run file, or a run known by name or id). */
function toolsOf(ref: string, dir: string, ctx: CommandContext): { file: string; tools: ToolDefinition[] } {
  const text = isFile(ref) ? readTextOrNull(ref) : null
  if (text !== null && isContractFile(ref, text)) return { file: ref, tools: parseContract(ref, text).tools }
  if (text === null && ref.endsWith(CONTRACT_FILE_SUFFIX)) {
    throw new TraceNotFoundError(ref, `There is no tool contract at ${ref}: pass the path of a contract file, or a run.`, ref)
  }
  const file = resolveRun(ref, dir)
  const trace = loadTrace(file)
  if (trace.tool_sets === undefined) ctx.note(`${file} records no tools offered (it has no tool_sets): it is compared as offering none.`)
  return { file, tools: toolsOffered(trace) }
}

export const toolsDiffCommand: Command = {
  name: 'tools diff',
  args: '<a> <b>',
  summary: 'the tools offered by two runs or tool contracts, each change classified; exit code 1 when one breaks',
  details: [
    'Each of <a> and <b> is a tool contract file (.tools.json) or a run (a trace file, a name, a trace_id).',
    'Each change is breaking (a tool or parameter removed, renamed or retyped, a new required parameter,',
    'an enum narrowed, a result schema changed incompatibly, a kind changed), compatible (a new tool, a',
    'new optional parameter, an enum widened, a constraint loosened) or wording (a description changed,',
    'shown word by word). Exit code 1 when a change of a class given to --fail is found.',
  ],
  options: {
    fail: {
      type: 'string',
      multiple: true,
      value: '<class>',
      default: 'breaking',
      description: 'the classes that exit 1: breaking, compatible, wording (repeat it, or separate with commas)',
    },
  },
  positionals: { min: 2, max: 2, names: '<a> <b> (each a tool contract file or a run)' },
  examples: [
    'reagent-flow tools diff .reagent/contracts/refund-agent.tools.json refund-agent',
    'reagent-flow tools diff old/refund-agent.trace.json refund-agent --fail breaking,wording',
  ],
  run(input, ctx) {
    const fail = failingClasses(input)
    const [a, b] = input.positionals as [string, string]
    const expected = toolsOf(a, ctx.dir, ctx)
    const actual = toolsOf(b, ctx.dir, ctx)
    const diff = diffToolContracts(expected.tools, actual.tools)
    const failed = diff.changes.some((change) => fail.includes(change.class))
    if (ctx.json) ctx.printJson({ expected: expected.file, actual: actual.file, diff, failed } satisfies ToolsDiffOutput)
    else {
      const { c } = ctx
      const summary = diff.equal ? `No changes · ${plural(actual.tools.length, 'tool')}` : `${plural(diff.changes.length, 'change')}: ${countsText(diff)}`
      const body = diff.equal && diff.invalid.length === 0 ? '' : `\n${formatContractDiff(diff, { color: c.isColorSupported })}`
      ctx.print(`${c.red(`- expected  ${expected.file}`)}\n${c.green(`+ actual    ${actual.file}`)}\n\n${summary}${body}`)
    }
    return failed ? EXIT_CHECK_FAILED : EXIT_OK
  },
}
