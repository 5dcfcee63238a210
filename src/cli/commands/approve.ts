/**
 * `reagent-flow approve <name...>` / `--all`: promotes the latest runs to
 * golden baselines; `--add` keeps the golden's accepted variants and adds
 * the run as one more, `--replace` makes it the only one.
 */
import { formatDiff } from '../../diff/format.js'
import { resolveDiffOptions } from '../../diff/options.js'
import type { TraceDiff } from '../../diff/types.js'
import { UsageError } from '../../errors.js'
import { compareWithGolden, fileGoldenStore, reconcile, renderGolden, type Acceptance, type GoldenStore, type WriteDecision } from '../../golden/index.js'
import { plural } from '../../report/format-value.js'
import { loadTraceOrSkip, type SkippedFile } from '../../storage.js'
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
  /** The golden's accepted variants before (0: there was none) and after, and which of them the run is (from 1). */
  variants: { before: number; after: number; run: number }
  /** For `updated`: the previous golden (its closest variant: expected) against the run (actual); null otherwise, or when the previous one was not a readable trace. */
  diff: TraceDiff | null
  /** For a golden older than the comparison of models and system prompts: what the run recorded into it (`model`, `system prompt`). */
  recorded?: readonly string[]
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
function approve(file: string, store: GoldenStore, accept: Acceptance, skipped: SkippedFile[]): Approval | undefined {
  const trace = loadTraceOrSkip(file, skipped)
  if (trace === undefined) return undefined
  const recorded = renderGolden(trace)
  const { name } = recorded.trace
  const golden = store.resolvePath(recorded.trace)
  const before = store.read(golden)
  // The golden engine decides, as for REAGENT_UPDATE=all; the diff options decide which variant a run refreshes.
  const decision = reconcile(recorded, before === null ? null : { path: golden, text: before }, 'all', DEFAULT_DIFF_OPTIONS, accept)
  const status = decision.written
  if (status !== 'unchanged') store.save(golden, decision.text)
  const diff = status === 'updated' ? changesOf(before!, golden, recorded.trace) : null
  const approval: Approval = { name, file, golden, status, variants: { ...decision.variants, run: decision.variant }, diff }
  if (decision.recorded !== undefined) approval.recorded = decision.recorded
  return approval
}

/** What became of the golden's variants, when it has or had more than one, or the run was added: `variant 2 of 2, added`. */
function variantNote(approval: Approval, accept: Acceptance): string {
  const { before, after, run } = approval.variants
  if (after > 1) return `variant ${run} of ${after}${approval.status === 'unchanged' ? '' : accept === 'add' ? ', added' : ', refreshed'}`
  if (before > 1) return `now its one variant; it had ${before}`
  return ''
}

/** What an update changed, indented under its line. */
function changeLines(approval: Approval, ctx: CommandContext): string[] {
  if (approval.status !== 'updated') return []
  const { diff } = approval
  if (diff === null) return [ctx.c.dim('  the previous golden was not a readable trace')]
  if (diff.equal && approval.recorded !== undefined) {
    return [ctx.c.dim(`  ${approval.recorded.join(' and ')} recorded: the golden predates comparing them; they are compared from now on`)]
  }
  if (diff.equal)
    return [ctx.c.dim('  tool calls, results, answers, models and system prompts are the same; other recorded fields changed (tokens, messages, metadata)')]
  return formatDiff(diff, { color: ctx.c.isColorSupported })
    .split('\n')
    .map((line) => (line === '' ? '' : `  ${line}`))
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

function printApprovals(out: ApproveOutput, accept: Acceptance, ctx: CommandContext): void {
  const { c } = ctx
  const paint = { created: c.green, updated: c.yellow, unchanged: c.dim } as const
  for (const approval of out.approved) {
    const note = variantNote(approval, accept)
    ctx.print(`${paint[approval.status](approval.status.padEnd(9))}  ${approval.golden}${note === '' ? '' : `  ${c.dim(`(${note})`)}`}`)
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
    'A golden may hold several accepted variants (an agent that is right in more than one way):',
    '--add adds the run as one more, --replace makes it the only one. Without either, the run',
    'refreshes the variant it matches, or, matching none, becomes the only one.',
  ],
  options: {
    all: { type: 'boolean', description: 'approve every run in the directory' },
    add: { type: 'boolean', description: "add the run to the golden's accepted variants" },
    replace: { type: 'boolean', description: "make the run the golden's only variant" },
  },
  positionals: { min: 0, max: Number.POSITIVE_INFINITY, names: '<name...>' },
  examples: [
    'reagent-flow approve refund-agent',
    'reagent-flow approve refund-agent search-agent',
    'reagent-flow approve --add ".reagent/test/refund.test.ts/refunds order 42.trace.json"',
    'reagent-flow approve --all --dir test/.traces',
  ],
  run(input, ctx) {
    if (input.options.add === true && input.options.replace === true)
      throw new UsageError('pass either --add (one more variant) or --replace (the only variant), not both')
    const accept: Acceptance = input.options.add === true ? 'add' : input.options.replace === true ? 'replace' : 'refresh'
    const unreadable: UnreadableFile[] = []
    const unfinished: ApproveOutput['unfinished'] = []
    const files = targets(input.positionals, input.options.all === true, ctx.dir, unreadable, unfinished)
    // The golden engine's own store: the same paths as matchGolden.
    const store = fileGoldenStore(ctx.dir)
    const approved = files.map((file) => approve(file, store, accept, unreadable)).filter((approval) => approval !== undefined)
    const out: ApproveOutput = { approved, unfinished, unreadable: unreadable.map(({ path, reason }) => ({ file: path, reason })) }
    if (ctx.json) ctx.printJson(out)
    else printApprovals(out, accept, ctx)
    for (const run of out.unfinished) {
      ctx.note(`skipped ${run.file}: the run is ${run.status}${run.reason === null ? '' : ` (${run.reason})`}; name it to approve it anyway`)
    }
    for (const file of out.unreadable) ctx.note(`skipped ${file.file}: not a readable trace: ${file.reason}`)
    return out.unreadable.length === 0 ? EXIT_OK : EXIT_USAGE
  },
}
