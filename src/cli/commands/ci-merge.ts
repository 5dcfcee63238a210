/** `reagent-flow ci merge <results...>`: the results files of the shards of one `vitest --shard` build, merged into one. */
import { plural } from '../../report/format-value.js'
import { mergeResults } from '../../results/merge.js'
import { readResultsFile, writeResultsFile } from '../../results/results-file.js'
import type { RunResults } from '../../results/types.js'
import { isFile } from '../../storage/index.js'
import { writeReport } from '../../viewer/report.js'
import { stringOption } from '../args.js'
import { EXIT_OK, type Command, type CommandContext } from '../command.js'

export const DEFAULT_MERGED_FILE = '.reagent/results/results.json'

/** The trace files the results name that are not on this machine (paths are relative to the vitest root: run from it). */
function missingTraces(results: RunResults): string[] {
  return results.tests.flatMap((test) => test.runs.flatMap((run) => (run.trace === null || isFile(run.trace) ? [] : [run.trace])))
}

/** `--report`: the HTML report of the trace directory, where every shard's traces were gathered; the traces the results name that it lacks. */
function writeMergedReport(out: string, merged: RunResults, ctx: CommandContext): { out: string; runs: number; goldens: number; missing_traces: string[] } {
  const report = writeReport(out, { dir: ctx.dir, title: `reagent-flow report · ${plural(merged.merged_shards?.length ?? 0, 'shard')} merged` })
  const missing = missingTraces(merged)
  if (missing.length > 0) {
    ctx.note(
      `${plural(missing.length, 'trace')} the results name ${missing.length === 1 ? 'is' : 'are'} not in ${ctx.dir} (${missing[0]}${missing.length > 1 ? ', ...' : ''}): ` +
        "gather every shard's trace directory there before merging, and run from the vitest root",
    )
  }
  return { out, runs: report.runs, goldens: report.goldens, missing_traces: missing }
}

export const ciMergeCommand: Command = {
  name: 'ci merge',
  args: '<results...>',
  summary: 'merge the results files of vitest --shard jobs into one (every test once, as an unsharded run)',
  details: [
    'Each file is a results file reagent-flow/vitest/reporter wrote under vitest --shard <i>/<n>.',
    'Refused (exit 2, one line naming the file): a file that is not JSON or cut short, of another results_version,',
    'not a shard, a shard of another split or commit, the same shard twice. Missing shards are named on stderr.',
    "--report writes the HTML report of --dir, where the shards' trace directories were gathered (run from the vitest root).",
  ],
  options: {
    out: { type: 'string', value: '<file>', default: DEFAULT_MERGED_FILE, description: 'where the merged results are written' },
    report: { type: 'string', value: '<file.html>', description: 'also write the HTML report of the merged runs (the traces in --dir)' },
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'results files' },
  examples: [
    'reagent-flow ci merge shards/*.json',
    'reagent-flow ci merge results.shard-1-of-2.json results.shard-2-of-2.json --out merged.json --report agents.html',
  ],
  run(input, ctx) {
    const inputs = input.positionals.map((file) => ({ file, results: readResultsFile(file) }))
    const { merged, missing } = mergeResults(inputs)
    const out = stringOption(input, 'out') || DEFAULT_MERGED_FILE
    writeResultsFile(out, merged)
    const shards = merged.merged_shards ?? []
    const count = shards[0]?.count ?? 0
    if (missing.length > 0) {
      const one = missing.length === 1
      const names = missing.map((shard) => `${shard.index}/${shard.count}`).join(', ')
      ctx.note(`shard${one ? '' : 's'} ${names} not given: ${one ? 'its' : 'their'} tests are not in ${out}`)
    }
    const reportOut = stringOption(input, 'report')
    const report = reportOut === undefined || reportOut === '' ? undefined : writeMergedReport(reportOut, merged, ctx)
    if (ctx.json) ctx.printJson({ out, shards, missing, tests: merged.tests.length, ...(report === undefined ? {} : { report }) })
    else {
      ctx.print(`merged ${shards.length} of ${count} shards (${merged.tests.length} tests) into ${out}`)
      if (report !== undefined) ctx.print(`reagent-flow report: ${report.out} · ${plural(report.runs, 'run')}, ${plural(report.goldens, 'golden')}`)
    }
    return EXIT_OK
  },
}
