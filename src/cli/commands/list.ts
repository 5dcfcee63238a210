/** `reagent-flow list`: a table of the recorded runs, filtered, ordered and paged like a run ledger. */
import { formatDuration, formatStatus, plural } from '../../report/format-value.js'
import { loadTraceOrSkip } from '../../storage/index.js'
import { countFailedToolCalls, countToolCalls, durationMs, statusOf } from '../../trace/facts.js'
import type { Grade, TraceStatus } from '../../trace/types.js'
import { intOption, stringOption } from '../args.js'
import { EXIT_OK, type Command, type CommandContext } from '../command.js'
import { formatTable, formatTime, formatVerdict } from '../format.js'
import { GRADE_FILTERS, noteUnreadable, ORDERS, queryRuns, scanRuns, STATUSES, type RunQuery, type UnreadableFile } from '../ledger.js'
import { goalOf, testKeyOf, tokenTotals, type TokenTotals } from '../run-facts.js'
import { describeRunSet, groupRunSets, runSetPlaceOf, type RunSetPlace, type RunSetRow } from '../run-sets.js'

export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 200

/** One run in `list --json`. */
export interface RunRow {
  file: string
  name: string
  /** Inside vitest, the run's test key: `<test name>`, or `<test name> > <session name>` for a session of its own in the test; null outside. */
  test_key: string | null
  trace_id: string
  status: TraceStatus
  goal: string | null
  started_at: number
  ended_at: number | null
  duration_ms: number | null
  turns: number
  tool_calls: number
  /** Tool calls whose result was an error. */
  failed_tool_calls: number
  tokens: TokenTotals | null
  grade: Grade | null
  /** The run set (`repeat()`) the run belongs to, and its place in it. */
  repeat: RunSetPlace | null
}

/** `list --json` */
export interface ListOutput {
  total: number
  offset: number
  limit: number
  /** The page, the runs of each run set together and in their order. */
  runs: RunRow[]
  /** The run sets on the page, each summed up over all its runs in the directory. */
  run_sets: RunSetRow[]
  unreadable: Array<{ file: string; reason: string }>
}

/** The page of runs `query` asks for, each read whole; the work behind `list`. */
export function listRuns(dir: string, query: RunQuery): ListOutput {
  const { runs, unreadable } = scanRuns(dir)
  const { total, page } = queryRuns(runs, query)
  const rows: RunRow[] = []
  const damaged: UnreadableFile[] = []
  for (const run of page) {
    // Its middle may be damaged: then it is set apart as unreadable.
    const trace = loadTraceOrSkip(run.path, damaged)
    if (trace === undefined) continue
    const { fields } = run
    rows.push({
      file: run.path,
      name: fields.name,
      test_key: testKeyOf(fields),
      trace_id: fields.trace_id,
      status: statusOf(fields),
      goal: goalOf(fields),
      started_at: fields.started_at,
      ended_at: fields.ended_at,
      duration_ms: durationMs(fields),
      turns: trace.turns.length,
      tool_calls: countToolCalls(trace),
      failed_tool_calls: countFailedToolCalls(trace),
      tokens: tokenTotals(trace),
      grade: fields.grade ?? null,
      repeat: runSetPlaceOf(run),
    })
  }
  const grouped = groupRunSets(rows, runs)
  return {
    // A file whose middle turned out damaged is not a run after all.
    total: total - damaged.length,
    offset: query.offset,
    limit: query.limit,
    runs: grouped.rows,
    run_sets: grouped.sets,
    unreadable: [...unreadable, ...damaged].map(({ path, reason }) => ({ file: path, reason })),
  }
}

function printTable(out: ListOutput, ctx: CommandContext): void {
  const { c } = ctx
  const rows = out.runs.map((run) => [
    // Inside vitest, the test with the session: `refund agent > refunds order 42 > billing`, not a bare `billing`;
    // a run set's runs by their own names, under the line that names the set by its test.
    run.repeat === null ? c.bold(run.test_key ?? run.name) : `  ${c.bold(run.name)}`,
    run.trace_id,
    formatStatus(run.status, c),
    formatTime(run.started_at),
    run.duration_ms === null ? '—' : formatDuration(run.duration_ms),
    String(run.turns),
    // A completed run whose tools threw must not read as a clean one: `2 (1 failed)`.
    run.failed_tool_calls === 0 ? String(run.tool_calls) : `${run.tool_calls} ${c.red(`(${run.failed_tool_calls} failed)`)}`,
    run.tokens === null ? '—' : String(run.tokens.total),
    run.grade === null ? c.dim('—') : formatVerdict(run.grade.grade, c),
  ])
  if (rows.length > 0) {
    const right = { align: 'right' } as const
    const columns = [
      { title: 'NAME' },
      { title: 'TRACE ID' },
      { title: 'STATUS' },
      { title: 'STARTED (UTC)' },
      { title: 'DURATION', ...right },
      { title: 'TURNS', ...right },
      { title: 'CALLS', ...right },
      { title: 'TOKENS', ...right },
      { title: 'GRADE' },
    ]
    const [header, ...lines] = formatTable(columns, rows, c).split('\n')
    // Each run set's line above its first run.
    const sets = new Map(out.run_sets.map((set) => [set.id, set]))
    const shown: string[] = [header!]
    out.runs.forEach((run, i) => {
      const set = run.repeat === null ? undefined : sets.get(run.repeat.id)
      if (set !== undefined && out.runs[i - 1]?.repeat?.id !== set.id) shown.push(c.dim(describeRunSet(set)))
      shown.push(lines[i]!)
    })
    ctx.print(shown.join('\n'))
  }
  const shown = rows.length === 0 ? '' : ` · showing ${out.offset + 1}–${out.offset + rows.length}`
  const none = out.total > 0 && rows.length === 0 ? ` · none at --offset ${out.offset}` : ''
  ctx.print(c.dim(`${out.total === 0 ? 'no runs' : plural(out.total, 'run')} match${out.total === 1 ? 'es' : ''}${shown}${none}`))
}

export const listCommand: Command = {
  name: 'list',
  args: '',
  summary: 'the recorded runs in the trace directory, newest first, and how many match',
  details: [
    'Filters and order work on the top-level fields of each file, read from its two ends;',
    'only the runs on the page are read whole. Files that are not readable traces are',
    'skipped and named on stderr (and under "unreadable" with --json). The runs of a run set',
    '(repeat()) are shown together, in order, under a line that sums the set up.',
  ],
  options: {
    status: { type: 'string', value: '<status>', choices: STATUSES, description: 'only runs with this status' },
    q: { type: 'string', value: '<text>', description: "only runs with <text> in the name (a test's too), trace_id or metadata.goal (any case)" },
    grade: { type: 'string', value: '<grade>', choices: GRADE_FILTERS, description: 'only runs with this grade (see reagent-flow grade)' },
    'order-by': { type: 'string', value: '<order>', choices: ORDERS, default: 'started_desc', description: 'the order' },
    limit: { type: 'string', value: '<n>', default: String(DEFAULT_LIMIT), description: `runs per page, 1 to ${MAX_LIMIT}` },
    offset: { type: 'string', value: '<n>', default: '0', description: 'runs to skip' },
  },
  positionals: { min: 0, max: 0, names: '' },
  examples: [
    'reagent-flow list',
    'reagent-flow list --status failed --order-by duration_desc',
    'reagent-flow list --q refund --grade ungraded --limit 20 --offset 20',
    'reagent-flow list --json | jq ".runs[].trace_id"',
  ],
  run(input, ctx) {
    const query: RunQuery = {
      status: stringOption(input, 'status') as RunQuery['status'],
      q: stringOption(input, 'q'),
      grade: stringOption(input, 'grade') as RunQuery['grade'],
      orderBy: (stringOption(input, 'order-by') ?? 'started_desc') as RunQuery['orderBy'],
      limit: intOption(input, 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT),
      offset: intOption(input, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    }
    const out = listRuns(ctx.dir, query)
    if (ctx.json) ctx.printJson(out)
    else printTable(out, ctx)
    noteUnreadable(out.unreadable, ctx.dir, ctx)
    return EXIT_OK
  },
}
