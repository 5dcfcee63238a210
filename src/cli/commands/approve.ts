/** `reagent-flow approve <name...>` / `--all`: promotes the latest runs to golden baselines. */
import { UsageError } from '../../errors.js'
import { loadTrace, readTextOrNull, renderTrace, tracePath, writeFileAtomic } from '../../storage.js'
import { EXIT_OK, EXIT_USAGE, type Command, type CommandContext } from '../command.js'
import { plural } from '../format.js'
import { scanRuns, type UnreadableFile } from '../ledger.js'
import { resolveRun } from '../resolve.js'

export type ApproveStatus = 'created' | 'updated' | 'unchanged'

export interface Approval {
  name: string
  /** The run that was approved. */
  file: string
  /** Its golden baseline. */
  golden: string
  status: ApproveStatus
}

/** `approve --json` */
export interface ApproveOutput {
  approved: Approval[]
  unreadable: Array<{ file: string; reason: string }>
}

/** Writes the golden normal form of the run in `file`, unless the golden already holds exactly that. */
function approve(file: string, dir: string): Approval {
  const trace = loadTrace(file)
  const golden = tracePath(trace.name, { traceDir: dir, golden: true })
  const before = readTextOrNull(golden)
  const text = renderTrace(trace, { golden: true })
  const status: ApproveStatus = before === text ? 'unchanged' : before === null ? 'created' : 'updated'
  if (status !== 'unchanged') writeFileAtomic(golden, text)
  return { name: trace.name, file, golden, status }
}

/** The runs to approve: the named ones, or with --all every readable run in the directory. */
function targets(names: readonly string[], all: boolean, dir: string, unreadable: UnreadableFile[]): string[] {
  if (all && names.length > 0) throw new UsageError('pass either names or --all, not both')
  if (!all && names.length === 0) throw new UsageError('name the runs to approve (reagent-flow approve <name...>), or pass --all')
  if (!all) return names.map((name) => resolveRun(name, dir))
  const scanned = scanRuns(dir)
  unreadable.push(...scanned.unreadable)
  return scanned.runs.map((run) => run.path)
}

function printApprovals(out: ApproveOutput, ctx: CommandContext): void {
  const { c } = ctx
  const paint = { created: c.green, updated: c.yellow, unchanged: c.dim } as const
  for (const approval of out.approved) ctx.print(`${paint[approval.status](approval.status.padEnd(9))}  ${approval.golden}`)
  const counts = (['created', 'updated', 'unchanged'] as const).map((status) => `${out.approved.filter((a) => a.status === status).length} ${status}`)
  ctx.print(c.dim(`${plural(out.approved.length, 'golden')}: ${counts.join(', ')}`))
}

export const approveCommand: Command = {
  name: 'approve',
  args: '<name...>',
  summary: 'promote the latest runs to golden baselines (--all: every run)',
  details: [
    'Writes <dir>/golden/<name>.trace.json in golden normal form (sorted keys, ids and times made',
    'deterministic, secrets redacted) and prints what changed; a golden that would not change is not rewritten.',
  ],
  options: {
    all: { type: 'boolean', description: 'approve every run in the directory' },
  },
  positionals: { min: 0, max: Number.POSITIVE_INFINITY, names: '<name...>' },
  examples: ['reagent-flow approve refund-agent', 'reagent-flow approve refund-agent search-agent', 'reagent-flow approve --all --dir test/.traces'],
  run(input, ctx) {
    const unreadable: UnreadableFile[] = []
    const files = targets(input.positionals, input.options.all === true, ctx.dir, unreadable)
    const out: ApproveOutput = {
      approved: files.map((file) => approve(file, ctx.dir)),
      unreadable: unreadable.map(({ path, reason }) => ({ file: path, reason })),
    }
    if (ctx.json) ctx.printJson(out)
    else printApprovals(out, ctx)
    for (const file of out.unreadable) ctx.note(`skipped ${file.file}: not a readable trace: ${file.reason}`)
    return out.unreadable.length === 0 ? EXIT_OK : EXIT_USAGE
  },
}
