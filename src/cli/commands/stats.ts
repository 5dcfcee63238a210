/** `reagent-flow stats --ledger <url>`: the ledger's trends (run.stats) as a table, one line per group and time bucket. */
import { createLedgerClient } from '../../ledger/client.js'
import { LEDGER_TOKEN_ENV, LEDGER_URL_ENV } from '../../ledger/ledger-option.js'
import type { RunStatsRow } from '../../ledger/output-schemas.js'
import { STATS_BUCKETS, STATS_GROUPS, type StatsBucket, type StatsGroupBy } from '../../ledger/stats-query.js'
import { formatDuration, formatPercent } from '../../report/format-value.js'
import { formatUsd } from '../../trace/cost.js'
import { stringOption } from '../args.js'
import { UsageError } from '../../errors/index.js'
import { EXIT_OK, type Command } from '../command.js'
import { formatTable, type Column } from '../format.js'

const COLUMNS: readonly Column[] = [
  { title: 'GROUP' },
  { title: 'FROM' },
  { title: 'RUNS', align: 'right' },
  { title: 'PASS', align: 'right' },
  { title: 'TOKENS', align: 'right' },
  { title: 'COST', align: 'right' },
  { title: 'P50', align: 'right' },
  { title: 'P95', align: 'right' },
  { title: 'TURNS', align: 'right' },
]

/** The bucket's start as the table shows it: the hour for hourly buckets, the date otherwise (UTC). */
function bucketLabel(iso: string, bucket: StatsBucket): string {
  return bucket === 'hour' ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10)
}

function cells(row: RunStatsRow, bucket: StatsBucket): string[] {
  const pass = row.pass_rate === null ? '-' : `${formatPercent(row.pass_rate)} (${row.passed}/${row.closed})`
  const duration = (ms: number | null): string => (ms === null ? '-' : formatDuration(ms))
  return [
    row.key === '' ? '(none)' : row.key,
    bucketLabel(row.bucket_start, bucket),
    String(row.runs),
    pass,
    String(row.input_tokens + row.output_tokens),
    formatUsd(row.cost_usd),
    duration(row.duration_p50_ms),
    duration(row.duration_p95_ms),
    String(row.turns),
  ]
}

export const statsCommand: Command = {
  name: 'stats',
  args: '',
  summary: "the ledger's trends: runs, pass rate, tokens, cost, duration p50/p95 and turns per agent (test, branch, commit) and day",
  details: [
    `The ledger is --ledger or ${LEDGER_URL_ENV}; a token of its token file is ${LEDGER_TOKEN_ENV} (a token sees its own namespace only).`,
    'A run passes when graded pass, or, ungraded, when it completed; PASS is passes over runs that ended.',
    'P50 and P95 are the durations of the runs that ended (nearest rank). Buckets are UTC; weeks start on Monday.',
    '--by test, branch and commit read the metadata the session reporter writes (test_name, git_branch, git_commit).',
  ],
  options: {
    ledger: { type: 'string', value: '<url>', description: `the ledger's URL, as reagent-flow serve prints it (default: ${LEDGER_URL_ENV})` },
    by: { type: 'string', value: '<group>', choices: STATS_GROUPS, default: 'agent', description: 'one line per agent, test, branch or commit' },
    bucket: { type: 'string', value: '<bucket>', choices: STATS_BUCKETS, default: 'day', description: 'the time bucket: hour, day or week' },
    since: { type: 'string', value: '<age>', default: '30d', description: 'only runs started this long ago or later: 12h, 30d, 8w' },
    agent: { type: 'string', value: '<agent>', description: "only this agent's runs" },
  },
  positionals: { min: 0, max: 0, names: '' },
  examples: [
    'reagent-flow stats --ledger http://127.0.0.1:4318',
    'reagent-flow stats --by branch --bucket week --since 12w',
    'reagent-flow stats --by commit --json',
  ],
  async run(input, ctx) {
    const url = stringOption(input, 'ledger') || process.env[LEDGER_URL_ENV] || undefined
    if (url === undefined) throw new UsageError(`stats needs a ledger: pass --ledger <url>, or set ${LEDGER_URL_ENV}`)
    const window = stringOption(input, 'since') || '30d'
    if (!/^[1-9][0-9]{0,5}[hdw]$/.test(window))
      throw new UsageError(`--since must be a count of hours, days or weeks (12h, 30d, 8w); got ${JSON.stringify(window)}`)
    const agent = stringOption(input, 'agent')
    const client = createLedgerClient(url, { token: process.env[LEDGER_TOKEN_ENV] || undefined })
    const answer = await client.stats({
      by: (stringOption(input, 'by') || 'agent') as StatsGroupBy,
      bucket: (stringOption(input, 'bucket') || 'day') as StatsBucket,
      since: window,
      ...(agent === undefined ? {} : { agent }),
    })
    if (ctx.json) {
      ctx.printJson({ ledger: client.url, ...answer })
      return EXIT_OK
    }
    const since = `${answer.since.slice(0, 16).replace('T', ' ')} UTC`
    if (answer.rows.length === 0) {
      ctx.print(`no runs in the ledger at ${client.url} since ${since}`)
      return EXIT_OK
    }
    ctx.print(`runs per ${answer.by} and ${answer.bucket} since ${since}, in the ledger at ${client.url}`)
    ctx.print(
      formatTable(
        COLUMNS,
        answer.rows.map((row) => cells(row, answer.bucket)),
        ctx.c,
      ),
    )
    return EXIT_OK
  },
}
