/** `reagent-flow approve <name...>` / `--all`: promotes the latest runs to golden baselines. */
import { formatDiff } from '../../diff/format.js'
import { resolveDiffOptions } from '../../diff/options.js'
import type { TraceDiff } from '../../diff/types.js'
import { UsageError } from '../../errors.js'
import { compareWithGolden, reconcile, type WriteDecision } from '../../golden.js'
import { plural } from '../../report/format-value.js'
import { fileGoldenStore, loadTraceOrSkip, renderGolden, type GoldenStore, type SkippedFile } from '../../storage.js'
import { statusOf } from '../../trace/facts.js'
import type { Trace, TraceStatus } from '../../trace/types.js'
import { EXIT_OK, EXIT_USAGE, type Command, type CommandContext } from '../command.js'
import { scanOnce, scanRuns, type UnreadableFile } from '../ledger.js'
import { resolveRun } from '../resolve.js'

export type ApproveStatus = WriteDecision['written']

const DEFAULT_DIFF_OPTIONS = resolveDiffOptions({})

export interface Approval {
  name: string
  /** The run that was approved. */
  file: string
  /** Its golden baseline. */
  golden: string
  status: ApproveStatus
  /** For `updated`: the previous golden (expected) against the new one (actual); null otherwise, or when the previous one was not a readable trace. */
  diff: TraceDiff | null
}

/** `approve --json` */
export interface ApproveOutput {
  approved: Approval[]
  /** Runs --all left out because they did not finish (active, cancelled, interrupted); named explicitly, they are approved. */
  unfinished: Array<{ file: string; status: TraceStatus; reason: string | null }>
  unreadable: Array<{ file: string; reason: string }>
}

/** Runs that did not finish hold part of a behaviour: --all never promotes them. */
const UNFINISHED: ReadonlySet<TraceStatus> = new Set(['active', 'cancelled', 'interrupted'])

/** The previous golden against the new one; null when the previous one is not a readable trace. */
function changesOf(before: string, golden: string, after: Trace): TraceDiff | null {
  try {
    return compareWithGolden({ path: golden, text: before }, after, DEFAULT_DIFF_OPTIONS).diff
  } catch {
    return null
  }
}

/**
 * Writes the golden normal form of the run in `file`, as update mode `all`
 * would: not when the golden already holds exactly that. A file that is not
 * a readable trace joins `skipped` (undefined is returned): one bad file never stops the others.
 */
function approve(file: string, store: GoldenStore, skipped: SkippedFile[]): Approval | undefined {
  const trace = loadTraceOrSkip(file, skipped)
  if (trace === undefined) return undefined
  const recorded = renderGolden(trace)
  const { name } = recorded.trace
  const golden = store.resolvePath(name)
  const before = store.read(golden)
  // The golden engine decides, as for REAGENT_UPDATE=all; the diff options only matter when it compares.
  const { written: status } = reconcile(recorded, before === null ? null : { path: golden, text: before }, 'all', DEFAULT_DIFF_OPTIONS)
  if (status !== 'unchanged') store.save(golden, recorded.text)
  const diff = status === 'updated' ? changesOf(before!, golden, recorded.trace) : null
  return { name, file, golden, status, diff }
}

/** What an update changed, indented under its line. */
function changeLines(approval: Approval, ctx: CommandContext): string[] {
  if (approval.status !== 'updated') return []
  const { diff } = approval
  if (diff === null) return [ctx.c.dim('  the previous golden was not a readable trace')]
  if (diff.equal) return [ctx.c.dim('  tool calls, results and answers are the same; other recorded fields changed (model, tokens, messages, metadata)')]
  return formatDiff(diff, { color: ctx.c.isColorSupported }).split('\n').map((line) => (line === '' ? '' : `  ${line}`))
}

/** The runs to approve: the named ones, or with --all every readable run in the directory that finished. */
function targets(names: readonly string[], all: boolean, dir: string, unreadable: UnreadableFile[], unfinished: ApproveOutput['unfinished']): string[] {
  if (all && names.length > 0) throw new UsageError('pass either names or --all, not both')
  if (!all && names.length === 0) throw new UsageError('name the runs to approve (reagent-flow approve <name...>), or pass --all')
  if (!all) {
    const scan = scanOnce(dir)
    return names.map((name) => resolveRun(name, dir, scan))
  }
  const scanned = scanRuns(dir)
  unreadable.push(...scanned.unreadable)
  const finished: string[] = []
  for (const run of scanned.runs) {
    const status = statusOf(run.fields)
    if (UNFINISHED.has(status)) unfinished.push({ file: run.path, status, reason: run.fields.interruption_reason ?? null })
    else finished.push(run.path)
  }
  return finished
}

function printApprovals(out: ApproveOutput, ctx: CommandContext): void {
  const { c } = ctx
  const paint = { created: c.green, updated: c.yellow, unchanged: c.dim } as const
  for (const approval of out.approved) {
    ctx.print(`${paint[approval.status](approval.status.padEnd(9))}  ${approval.golden}`)
    for (const line of changeLines(approval, ctx)) ctx.print(line)
  }
  const counts = (['created', 'updated', 'unchanged'] as const).map((status) => `${out.approved.filter((a) => a.status === status).length} ${status}`)
  ctx.print(c.dim(`${plural(out.approved.length, 'golden')}: ${counts.join(', ')}`))
}

export const approveCommand: Command = {
  name: 'approve',
  args: '<name...>',
  summary: 'promote the latest runs to golden baselines (--all: every run)',
  details: [
    'Writes <dir>/golden/<name>.trace.json in golden normal form (sorted keys, ids and times made',
    'deterministic, secrets redacted) and prints what changed, as reagent-flow diff does (the previous',
    'golden is "expected"). A golden that would not change is not rewritten. --all leaves out runs',
    'that did not finish (active, cancelled, interrupted); name one to approve it anyway.',
  ],
  options: {
    all: { type: 'boolean', description: 'approve every run in the directory' },
  },
  positionals: { min: 0, max: Number.POSITIVE_INFINITY, names: '<name...>' },
  examples: ['reagent-flow approve refund-agent', 'reagent-flow approve refund-agent search-agent', 'reagent-flow approve --all --dir test/.traces'],
  run(input, ctx) {
    const unreadable: UnreadableFile[] = []
    const unfinished: ApproveOutput['unfinished'] = []
    const files = targets(input.positionals, input.options.all === true, ctx.dir, unreadable, unfinished)
    // The golden engine's own store: the same paths as matchGolden.
    const store = fileGoldenStore(ctx.dir)
    const approved = files.map((file) => approve(file, store, unreadable)).filter((approval) => approval !== undefined)
    const out: ApproveOutput = { approved, unfinished, unreadable: unreadable.map(({ path, reason }) => ({ file: path, reason })) }
    if (ctx.json) ctx.printJson(out)
    else printApprovals(out, ctx)
    for (const run of out.unfinished) {
      ctx.note(`skipped ${run.file}: the run is ${run.status}${run.reason === null ? '' : ` (${run.reason})`}; name it to approve it anyway`)
    }
    for (const file of out.unreadable) ctx.note(`skipped ${file.file}: not a readable trace: ${file.reason}`)
    return out.unreadable.length === 0 ? EXIT_OK : EXIT_USAGE
  },
}
