/** `reagent-flow recordings`: the recordings of model calls in the trace directory, and pruning the unused ones. */
import { plural } from '../../report/format-value.js'
import { removeRecording } from '../../storage/index.js'
import { EXIT_OK, type Command, type CommandContext } from '../command.js'
import { UsageError } from '../../errors/index.js'
import { formatTable } from '../format.js'
import { formatAge, formatBytes, scanRecordings, type RecordingRow } from '../recordings.js'

const DAY_SECONDS = 86_400
export const DEFAULT_UNUSED_DAYS = 30

/** `recordings --json` */
export interface RecordingsOutput {
  recordings: RecordingRow[]
  /** With --prune: the files removed (or, with --dry-run, that would be). */
  pruned?: string[]
  unreadable: Array<{ file: string; reason: string }>
}

function daysOption(raw: string | boolean | string[] | undefined): number {
  if (raw === undefined) return DEFAULT_UNUSED_DAYS
  const text = String(raw)
  if (!/^\d+(\.\d+)?$/.test(text)) throw new UsageError(`--unused-for must be a number of days (30, 7.5); got ${JSON.stringify(text)}`)
  return Number(text)
}

function printTable(out: RecordingsOutput, ctx: CommandContext, now: number): void {
  const { c } = ctx
  const pruned = new Set(out.pruned ?? [])
  const rows = out.recordings.map((row) => [
    pruned.has(row.file) ? c.dim(row.file) : row.file,
    String(row.scopes),
    String(row.calls),
    String(row.tool_runs),
    formatBytes(row.bytes),
    formatAge(row.recorded_at, now),
    formatAge(row.last_used_at, now),
  ])
  if (rows.length > 0) {
    const right = { align: 'right' } as const
    ctx.print(
      formatTable(
        [
          { title: 'FILE' },
          { title: 'SCOPES', ...right },
          { title: 'CALLS', ...right },
          { title: 'TOOL RUNS', ...right },
          { title: 'SIZE', ...right },
          { title: 'RECORDED' },
          { title: 'LAST USE' },
        ],
        rows,
        c,
      ),
    )
  }
  const total = out.recordings.reduce((sum, row) => sum + row.bytes, 0)
  ctx.print(c.dim(out.recordings.length === 0 ? 'no recordings' : `${plural(out.recordings.length, 'recording')}, ${formatBytes(total)}`))
}

export const recordingsCommand: Command = {
  name: 'recordings',
  args: '',
  summary: 'the recordings of model calls (replay) in the trace directory: size, age, last use; --prune removes the unused',
  details: [
    'A recording is written by a session in record (or auto) mode, beside its trace file.',
    'Its last use is when a session last recorded or replayed from it on this machine.',
    '--prune removes the recordings no session used for --unused-for days (default 30).',
  ],
  options: {
    prune: { type: 'boolean', description: 'remove the recordings not used for --unused-for days' },
    'unused-for': { type: 'string', value: '<days>', default: String(DEFAULT_UNUSED_DAYS), description: 'how long unused before --prune removes a recording' },
    'dry-run': { type: 'boolean', description: 'with --prune: say what would be removed, remove nothing' },
  },
  positionals: { min: 0, max: 0, names: '' },
  examples: ['reagent-flow recordings', 'reagent-flow recordings --prune --unused-for 14', 'reagent-flow recordings --prune --dry-run --json'],
  run(input, ctx) {
    const now = Date.now() / 1000
    const days = daysOption(input.options['unused-for'])
    const scan = scanRecordings(ctx.dir)
    const out: RecordingsOutput = { recordings: scan.recordings, unreadable: scan.unreadable }
    if (input.options.prune === true) {
      const stale = scan.recordings.filter((row) => now - row.last_used_at > days * DAY_SECONDS)
      if (input.options['dry-run'] !== true) for (const row of stale) removeRecording(row.file)
      out.pruned = stale.map((row) => row.file)
    }
    if (ctx.json) ctx.printJson(out)
    else {
      printTable(out, ctx, now)
      if (out.pruned !== undefined) {
        const bytes = scan.recordings.filter((row) => out.pruned!.includes(row.file)).reduce((sum, row) => sum + row.bytes, 0)
        const verb = input.options['dry-run'] === true ? 'would remove' : 'removed'
        ctx.print(
          `${verb} ${plural(out.pruned.length, 'recording')} (${formatBytes(bytes)}) not used for ${days} day${days === 1 ? '' : 's'}${out.pruned.length === 0 ? '' : `: ${out.pruned.join(', ')}`}`,
        )
      }
    }
    for (const { file, reason } of scan.unreadable) ctx.note(`skipped ${file}: ${reason}`)
    return EXIT_OK
  },
}
