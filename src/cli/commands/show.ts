/** `reagent-flow show <run>`: one run as an agent stack trace, with its place among the runs around it. */
import { formatChatLines } from '../../report/chat.js'
import { formatSpend } from '../../report/spend-line.js'
import { formatStackTrace } from '../../report/stack-trace.js'
import { defaultPriceTable, loadTrace } from '../../storage/index.js'
import { helperTracesOf, spendOf, type Spend } from '../../trace/spend.js'
import type { Trace } from '../../trace/types.js'
import { EXIT_OK, type Command, type CommandContext } from '../command.js'
import { formatFacts, formatGrade, formatTime } from '../format.js'
import { scanOnce, type RunFile } from '../ledger.js'
import { resolveRun } from '../resolve.js'

/** Another run, as `show --json` names it; `name` and `file` are null when it is not in the directory. */
export interface RunLink {
  trace_id: string
  name: string | null
  file: string | null
}

/** `show --json` */
export interface ShowOutput {
  file: string
  trace: Trace
  parent: RunLink | null
  children: RunLink[]
  /** Present only when the run has helper runs (a simulated user, judges, simulated tools): what each part spent. */
  spend?: Spend
}

const link = (run: RunFile): RunLink => ({ trace_id: run.fields.trace_id, name: run.fields.name, file: run.path })

/** The run's parent and children among `runs`, the runs of the directory (none when there is no such directory). */
function linksOf(trace: Trace, runs: readonly RunFile[]): Pick<ShowOutput, 'parent' | 'children'> {
  const parentId = trace.parent_trace_id ?? null
  const parentRun = parentId === null ? undefined : runs.find((run) => run.fields.trace_id === parentId)
  const children = runs
    .filter((run) => run.fields.parent_trace_id === trace.trace_id && run.fields.trace_id !== trace.trace_id)
    .sort((a, b) => a.fields.started_at - b.fields.started_at)
  return {
    parent: parentId === null ? null : parentRun === undefined ? { trace_id: parentId, name: null, file: null } : link(parentRun),
    children: children.map(link),
  }
}

/** The spend of `trace` with its helper runs (its children that say their role), when it has any; a child that cannot be read is left out. */
function spendWithHelpers(trace: Trace, children: readonly RunLink[]): Spend | undefined {
  const traces: Trace[] = []
  for (const child of children) {
    if (child.file === null) continue
    try {
      traces.push(loadTrace(child.file))
    } catch {
      // Listed by the scan, unreadable now: its spend is unknown, the run is still shown.
    }
  }
  const helpers = helperTracesOf(trace, traces)
  return helpers.length === 0 ? undefined : spendOf(trace, helpers, defaultPriceTable())
}

function printView(out: ShowOutput, ctx: CommandContext): void {
  const { trace } = out
  const { c } = ctx
  const runName = (run: RunLink): string => (run.name === null ? `${run.trace_id} ${c.dim(`(not in ${ctx.dir})`)}` : `${c.bold(run.name)}  ${run.trace_id}`)
  const facts: Array<[string, string]> = [
    ['trace_id', trace.trace_id],
    ['file', out.file],
    ['started', `${formatTime(trace.started_at)} UTC`],
  ]
  if (out.parent !== null) facts.push(['parent', runName(out.parent)])
  if (trace.handoff_context != null) facts.push(['handoff', Object.keys(trace.handoff_context).join(', ') || '(empty)'])
  for (const [i, child] of out.children.entries()) facts.push([i === 0 ? 'children' : '', runName(child)])
  if (trace.grade !== undefined) facts.push(['grade', formatGrade(trace.grade, c)])
  if (out.spend !== undefined) facts.push(['spend', formatSpend(out.spend)])
  // A conversation reads first as what was said, then as what the agent did for each reply (its turns).
  const preface = trace.conversation === undefined ? [] : formatChatLines(trace.conversation, c)
  ctx.print(`${formatStackTrace(trace, { color: c.isColorSupported, preface })}\n\n${formatFacts(facts, c)}`)
}

export const showCommand: Command = {
  name: 'show',
  args: '<run>',
  summary: 'one run as an agent stack trace (turns, calls, results, errors, tokens), with its parent and children',
  details: [
    'Traces longer than 40 turns show their first 10 and last 20 turns, and the turns with errors in between.',
    'A run of conversation() (reagent-flow/simulate) shows its conversation as a chat before its turns: each message with its exchange, the turns each agent reply produced, and how it ended.',
  ],
  options: {},
  positionals: { min: 1, max: 1, names: '<run> (a trace name, a trace file or a trace_id)' },
  examples: ['reagent-flow show refund-agent', 'reagent-flow show .reagent/refund-agent.trace.json', 'reagent-flow show 01JV6Q3M8X --json'],
  run(input, ctx) {
    const scan = scanOnce(ctx.dir)
    const file = resolveRun(input.positionals[0]!, ctx.dir, scan)
    const trace = loadTrace(file)
    const links = linksOf(trace, scan().traces)
    const spend = spendWithHelpers(trace, links.children)
    const out: ShowOutput = { file, trace, ...links, ...(spend === undefined ? {} : { spend }) }
    if (ctx.json) ctx.printJson(out)
    else printView(out, ctx)
    return EXIT_OK
  },
}
