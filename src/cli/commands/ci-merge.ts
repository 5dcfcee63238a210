/** `reagent-flow ci merge <results...>`: the results files of the shards of one `vitest --shard` build, merged into one. */
import { readResultsFile, writeResultsFile } from '../../results/results-file.js'
import { mergeResults } from '../../results/merge.js'
import { EXIT_OK, type Command } from '../command.js'

export const DEFAULT_MERGED_FILE = '.reagent/results/results.json'

export const ciMergeCommand: Command = {
  name: 'ci merge',
  args: '<results...>',
  summary: 'merge the results files of vitest --shard jobs into one (every test once, as an unsharded run)',
  details: [
    'Each file is a results file reagent-flow/vitest/reporter wrote under vitest --shard <i>/<n>.',
    'Refused (exit 2, one line naming the file): a file that is not JSON or cut short, of another results_version,',
    'not a shard, a shard of another split or commit, the same shard twice. Missing shards are named on stderr.',
  ],
  options: {
    out: { type: 'string', value: '<file>', default: DEFAULT_MERGED_FILE, description: 'where the merged results are written' },
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'results files' },
  examples: ['reagent-flow ci merge shards/*.json', 'reagent-flow ci merge results.shard-1-of-2.json results.shard-2-of-2.json --out merged.json'],
  run(input, ctx) {
    const inputs = input.positionals.map((file) => ({ file, results: readResultsFile(file) }))
    const { merged, missing } = mergeResults(inputs)
    const out = typeof input.options.out === 'string' && input.options.out !== '' ? input.options.out : DEFAULT_MERGED_FILE
    writeResultsFile(out, merged)
    const shards = merged.merged_shards ?? []
    const count = shards[0]?.count ?? 0
    if (missing.length > 0) {
      const one = missing.length === 1
      const names = missing.map((shard) => `${shard.index}/${shard.count}`).join(', ')
      ctx.note(`shard${one ? '' : 's'} ${names} not given: ${one ? 'its' : 'their'} tests are not in ${out}`)
    }
    if (ctx.json) ctx.printJson({ out, shards, missing, tests: merged.tests.length })
    else ctx.print(`merged ${shards.length} of ${count} shards (${merged.tests.length} tests) into ${out}`)
    return EXIT_OK
  },
}
