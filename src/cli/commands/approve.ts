/**
 * `reagent-flow approve <name...>` / `--all`: promotes the latest runs to
 * golden baselines; `--add` keeps the golden's accepted variants and adds
 * the run as one more, `--replace` makes it the only one. Which runs --all
 * takes (those that asked for a golden, a run set once) is approve-targets.ts.
 */
import { formatDiff } from '../../diff/format.js'
import { resolveDiffOptions } from '../../diff/options.js'
import type { TraceDiff } from '../../diff/types.js'
import { UsageError } from '../../errors/index.js'
import { compareWithGolden, fileGoldenStore, reconcile, renderGolden, type Acceptance, type GoldenStore, type WriteDecision } from '../../golden/index.js'
import { plural } from '../../report/format-value.js'
import { loadTraceOrSkip, type SkippedFile } from '../../storage/index.js'
import type { Trace } from '../../trace/types.js'
import { allTargets, type AllTargets, type RunSetChoice, type SkippedRun, type SkipReason } from '../approve-targets.js'
import { EXIT_OK, EXIT_USAGE, type Command, type CommandContext } from '../command.js'
import { scanOnce, scanRuns } from '../ledger.js'
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
  /** With --all, the run set (`repeat()`) the run stands for: its number in the set, and how many runs of the set are in the directory. */
  run_set: RunSetChoice | null
  /** For a golden older than the comparison of models and system prompts: what the run recorded into it (`model`, `system prompt`). */
  recorded?: readonly string[]
}

/** `approve --json` */
export interface ApproveOutput {
  approved: Approval[]
  /** Runs --all left out because they did not finish (active, cancelled, interrupted); named explicitly, they are approved. */
  unfinished: AllTargets['unfinished']
  /** Finished runs --all left out: no golden asked for and none there, of an earlier run of a run set, of a run set none of whose runs completed. */
  skipped: SkippedRun[]
  unreadable: Array<{ file: string; reason: string }>
}

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
function approve(file: string, runSet: RunSetChoice | null, store: GoldenStore, accept: Acceptance, skipped: SkippedFile[]): Approval | undefined {
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
  const approval: Approval = { name, file, golden, status, variants: { ...decision.variants, run: decision.variant }, diff, run_set: runSet }
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

/** The run set a run was approved for: `run set "triage" of 4 runs, by run #1`. */
function runSetNote(approval: Approval): string {
  const set = approval.run_set
  return set === null ? '' : `run set "${set.name}" of ${plural(set.runs, 'run')}, by run #${set.run}`
}

/** What an update changed, indented under its line. */
function changeLines(approval: Approval, ctx: CommandContext): string[] {
  if (approval.status === 'reformatted') return [ctx.c.dim('  golden format updated: the same behaviour, rewritten from an older form in the current one')]
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

/** The runs to approve: the named ones, or with --all those approve-targets.ts picks. */
function targets(names: readonly string[], all: boolean, dir: string, store: GoldenStore): AllTargets {
  if (all && names.length > 0) throw new UsageError('pass either names or --all, not both')
  if (!all && names.length === 0) throw new UsageError('name the runs to approve (reagent-flow approve <name...>), or pass --all')
  if (all) {
    const scanned = scanRuns(dir)
    return allTargets(scanned.runs, scanned.unreadable, (identity) => store.resolvePath(identity))
  }
  const scan = scanOnce(dir)
  return { runs: names.map((name) => ({ file: resolveRun(name, dir, scan), runSet: null })), unfinished: [], skipped: [], unreadable: [] }
}

const SKIP_WORDS: Readonly<Record<SkipReason, (count: number) => string>> = {
  no_golden_asked: (n) => `${n} never asked for a golden and ${n === 1 ? 'has' : 'have'} none`,
  earlier_run_set: (n) => `${n} of an earlier run of ${n === 1 ? 'its' : 'their'} run set`,
  no_completed_run: (n) => `${n} of a run set none of whose runs completed`,
}

/** Names shown per reason in the summary line; --json lists them all. */
const SHOWN_SKIPPED = 3

/** `skipped 3 runs: 2 never asked for a golden and have none (billing-agent, search-agent); 1 of ...`: one line for every finished run --all left out. */
function skippedLine(skipped: readonly SkippedRun[]): string | undefined {
  if (skipped.length === 0) return undefined
  const parts = (Object.keys(SKIP_WORDS) as SkipReason[]).flatMap((reason) => {
    const names = skipped.filter((run) => run.reason === reason).map((run) => run.name)
    if (names.length === 0) return []
    const shown = names.slice(0, SHOWN_SKIPPED).join(', ') + (names.length > SHOWN_SKIPPED ? ', …' : '')
    return [`${SKIP_WORDS[reason](names.length)} (${shown})`]
  })
  return `skipped ${plural(skipped.length, 'run')}: ${parts.join('; ')}. Name a run to approve it anyway.`
}

function printApprovals(out: ApproveOutput, accept: Acceptance, ctx: CommandContext): void {
  const { c } = ctx
  const paint = { created: c.green, updated: c.yellow, reformatted: c.yellow, unchanged: c.dim } as const
  const width = out.approved.some((a) => a.status === 'reformatted') ? 'reformatted'.length : 'unchanged'.length
  for (const approval of out.approved) {
    const note = [runSetNote(approval), variantNote(approval, accept)].filter((part) => part !== '').join('; ')
    ctx.print(`${paint[approval.status](approval.status.padEnd(width))}  ${approval.golden}${note === '' ? '' : `  ${c.dim(`(${note})`)}`}`)
    for (const line of changeLines(approval, ctx)) ctx.print(line)
  }
  // `reformatted` is named only when a golden was: it is rare (a golden written in an older form).
  const statuses = out.approved.some((a) => a.status === 'reformatted')
    ? (['created', 'updated', 'reformatted', 'unchanged'] as const)
    : (['created', 'updated', 'unchanged'] as const)
  const counts = statuses.map((status) => `${out.approved.filter((a) => a.status === status).length} ${status}`)
  ctx.print(c.dim(`${plural(out.approved.length, 'golden')}: ${counts.join(', ')}`))
  const skipped = skippedLine(out.skipped)
  if (skipped !== undefined) ctx.print(c.dim(skipped))
}

export const approveCommand: Command = {
  name: 'approve',
  args: '<name...>',
  summary: 'promote the latest runs to golden baselines (--all: every run that asked for one)',
  details: [
    'Writes <dir>/golden/<name>.trace.json in golden normal form (sorted keys, ids and times made',
    'deterministic, secrets redacted) and prints what changed, as reagent-flow diff does (the previous',
    'golden is "expected"). A golden that would not change is not rewritten. --all approves the runs',
    'that asked for a golden (golden: true, toMatchGolden(), assertMatchesBaseline()) or have one, a',
    'run set (repeat()) once, by its lowest-numbered completed run, as the run set writes its golden;',
    'it leaves out runs that did not finish (active, cancelled, interrupted) and says in one line',
    'which other runs it skipped and why. Name a run to approve it anyway.',
    'A golden may hold several accepted variants (an agent that is right in more than one way):',
    '--add adds the run as one more, --replace makes it the only one. Without either, the run',
    'refreshes the variant it matches, or, matching none, becomes the only one.',
  ],
  options: {
    all: { type: 'boolean', description: 'approve every run in the directory that asked for a golden or has one' },
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
    // The golden engine's own store: the same paths as matchGolden.
    const store = fileGoldenStore(ctx.dir)
    const chosen = targets(input.positionals, input.options.all === true, ctx.dir, store)
    const unreadable = chosen.unreadable
    const approved = chosen.runs.map(({ file, runSet }) => approve(file, runSet, store, accept, unreadable)).filter((approval) => approval !== undefined)
    const out: ApproveOutput = {
      approved,
      unfinished: chosen.unfinished,
      skipped: chosen.skipped,
      unreadable: unreadable.map(({ path, reason }) => ({ file: path, reason })),
    }
    if (ctx.json) ctx.printJson(out)
    else printApprovals(out, accept, ctx)
    for (const run of out.unfinished) {
      ctx.note(`skipped ${run.file}: the run is ${run.status}${run.reason === null ? '' : ` (${run.reason})`}; name it to approve it anyway`)
    }
    for (const file of out.unreadable) ctx.note(`skipped ${file.file}: not a readable trace: ${file.reason}`)
    return out.unreadable.length === 0 ? EXIT_OK : EXIT_USAGE
  },
}
