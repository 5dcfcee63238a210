/** `reagent-flow tree <run>`: the chain of agents a run belongs to, from the agent that started it all. */
import { dirname, resolve } from 'node:path'
import { linkChain, type ChainNode } from '../../chain/load-chain.js'
import { formatDuration, formatStatus, plural } from '../../report/format-value.js'
import { UsageError } from '../../errors/index.js'
import { isFile, loadTrace, TRACE_FILE_SUFFIX } from '../../storage/index.js'
import { countToolCalls, durationMs, statusOf } from '../../trace/facts.js'
import type { TraceStatus } from '../../trace/types.js'
import { EXIT_OK, type Command, type CommandContext } from '../command.js'
import { noteUnreadable, runsOf, scanOnce, type RunFile } from '../ledger.js'
import { resolveRun } from '../resolve.js'

/** One agent in `tree --json`, with the agents it started. */
export interface TreeNode {
  name: string
  trace_id: string
  file: string
  status: TraceStatus
  turns: number
  tool_calls: number
  duration_ms: number | null
  /** The keys of the context its parent handed over; null when none was. */
  handoff_keys: string[] | null
  children: TreeNode[]
}

/** `tree --json` */
export interface TreeOutput {
  root: TreeNode
  /** The run asked for (the root or one below it). */
  trace_id: string
  /** The root's parent_trace_id when that trace is not in the directory. */
  missing_parent: string | null
  unreadable: Array<{ file: string; reason: string }>
}

/** The run's oldest ancestor in `runs` (following parent_trace_id), and a parent id found nowhere. */
function topOf(start: RunFile, runs: readonly RunFile[]): { top: RunFile; missingParent: string | null } {
  const byId = new Map(runs.map((run) => [run.fields.trace_id, run]))
  const seen = new Set<RunFile>([start])
  let top = start
  for (;;) {
    const parentId = top.fields.parent_trace_id ?? null
    if (parentId === null) return { top, missingParent: null }
    const parent = byId.get(parentId)
    if (parent === undefined) return { top, missingParent: parentId }
    // Damaged files can link in a loop; stop where it closes.
    if (seen.has(parent)) return { top, missingParent: null }
    seen.add(parent)
    top = parent
  }
}

function toTreeNode(node: ChainNode): TreeNode {
  const { trace } = node
  return {
    name: node.name,
    trace_id: node.traceId,
    file: node.path,
    status: statusOf(trace),
    turns: trace.turns.length,
    tool_calls: countToolCalls(trace),
    duration_ms: durationMs(trace),
    handoff_keys: trace.handoff_context == null ? null : Object.keys(trace.handoff_context),
    children: node.children.map(toTreeNode),
  }
}

function nodeLine(node: TreeNode, wanted: string, ctx: CommandContext): string {
  const { c } = ctx
  const facts = [formatStatus(node.status, c), plural(node.turns, 'turn'), plural(node.tool_calls, 'tool call')]
  if (node.duration_ms !== null) facts.push(formatDuration(node.duration_ms))
  if (node.handoff_keys !== null) facts.push(`handoff: ${node.handoff_keys.join(', ') || '(empty)'}`)
  const mark = node.trace_id === wanted ? `  ${c.cyan('◀')}` : ''
  return `${c.bold(node.name)}  ${c.dim(node.trace_id)}  ${facts.join(' · ')}${mark}`
}

function treeLines(node: TreeNode, wanted: string, ctx: CommandContext, prefix = '', childPrefix = ''): string[] {
  const lines = [`${prefix}${nodeLine(node, wanted, ctx)}`]
  node.children.forEach((child, i) => {
    const last = i === node.children.length - 1
    lines.push(...treeLines(child, wanted, ctx, `${childPrefix}${last ? '└─ ' : '├─ '}`, `${childPrefix}${last ? '   ' : '│  '}`))
  })
  return lines
}

export const treeCommand: Command = {
  name: 'tree',
  args: '<run>',
  summary: 'the chain of agents a run belongs to: parents, children (by parent_trace_id), handoff keys',
  details: [
    'The tree starts at the oldest ancestor of the run found in the directory; ◀ marks the run asked for.',
    'Files that are not readable traces are skipped and named on stderr (and under "unreadable" with --json).',
  ],
  options: {},
  positionals: { min: 1, max: 1, names: '<run> (a trace name, a trace file or a trace_id)' },
  examples: ['reagent-flow tree support-agent', 'reagent-flow tree 01JV6Q3M8X --json'],
  run(input, ctx) {
    const ref = input.positionals[0]!
    // A trace file named by its path brings its own directory: its relatives are next to it.
    const dir = isFile(ref) ? dirname(ref) : ctx.dir
    const scan = scanOnce(dir)
    const file = resolveRun(ref, dir, scan)
    const { runs, unreadable } = runsOf(scan(), dir)
    const start = runs.find((run) => resolve(run.path) === resolve(file))
    if (start === undefined) {
      // Not among the readable runs of the directory: a damaged file says what is wrong with it here.
      loadTrace(file)
      throw new UsageError(`${file} is not a *${TRACE_FILE_SUFFIX} file of ${dir}, where its chain is looked for`)
    }
    const { top, missingParent } = topOf(start, runs)
    // The chain's files are read whole as they are linked; one damaged in its turns joins `unreadable`.
    const skipped = [...unreadable]
    const chain = linkChain({ path: top.path, trace: loadTrace(top.path) }, runs, skipped)
    const out: TreeOutput = {
      root: toTreeNode(chain),
      trace_id: start.fields.trace_id,
      missing_parent: missingParent,
      unreadable: skipped.map(({ path, reason }) => ({ file: path, reason })),
    }
    if (ctx.json) ctx.printJson(out)
    else {
      if (missingParent !== null) ctx.print(ctx.c.dim(`(started by ${missingParent}, not in ${dir})`))
      ctx.print(treeLines(out.root, out.trace_id, ctx).join('\n'))
    }
    noteUnreadable(out.unreadable, dir, ctx)
    return EXIT_OK
  },
}
