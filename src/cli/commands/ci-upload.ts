/**
 * `reagent-flow ci upload <results...>`: results files kept in the run ledger
 * (results.put), so that `--baseline ledger:main@20` finds main's last runs
 * without downloading CI artifacts. Explicit, and so a failed upload fails
 * the step (exit 2): a CI that must not stop for it says `|| true`.
 */
import { UsageError } from '../../errors/index.js'
import { createLedgerClient } from '../../ledger/client.js'
import { LEDGER_TOKEN_ENV, LEDGER_URL_ENV } from '../../ledger/ledger-option.js'
import { readResultsFile } from '../../results/results-file.js'
import { stringOption } from '../args.js'
import { EXIT_OK, type Command } from '../command.js'

export const ciUploadCommand: Command = {
  name: 'ci upload',
  args: '<results...>',
  summary: 'keep results files in the run ledger (results.put), as the baseline that --baseline ledger:<branch>@<N> reads',
  details: [
    'Each file is checked as compare reads it, then kept with its commit, branch, shard and started_at; the same file uploaded twice is kept once.',
    `The ledger is --ledger or ${LEDGER_URL_ENV}; a token of its token file is ${LEDGER_TOKEN_ENV}.`,
    'Upload one file per build (the merged results of a sharded build), so that ledger:main@20 is main’s last 20 builds.',
    'Exit codes: 0 kept, 2 bad usage, an unreadable file, or a ledger that refused or could not be reached.',
  ],
  options: {
    ledger: { type: 'string', value: '<url>', description: `the ledger's URL, as reagent-flow serve prints it (default: ${LEDGER_URL_ENV})` },
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'results files' },
  examples: ['reagent-flow ci upload .reagent/results/results.json', 'reagent-flow ci upload merged.json --ledger https://ledger.example.com'],
  async run(input, ctx) {
    const url = stringOption(input, 'ledger') || process.env[LEDGER_URL_ENV] || undefined
    if (url === undefined) throw new UsageError(`ci upload needs a ledger: pass --ledger <url>, or set ${LEDGER_URL_ENV}`)
    const files = input.positionals.map((file) => ({ file, results: readResultsFile(file) }))
    const client = createLedgerClient(url, { token: process.env[LEDGER_TOKEN_ENV] || undefined })
    const uploaded = []
    for (const { file, results } of files) {
      const answer = await client.putResults(results)
      uploaded.push({ file, results_id: answer.results_id, stored: answer.stored, branch: results.branch, commit: results.commit })
      if (!ctx.json) {
        const where = `branch ${results.branch ?? '(unknown)'}, commit ${results.commit?.slice(0, 12) ?? '(unknown)'}`
        ctx.print(answer.stored ? `kept ${file} in the ledger at ${client.url} (${where})` : `${file} was already in the ledger at ${client.url} (${where})`)
      }
    }
    if (ctx.json) ctx.printJson({ ledger: client.url, uploaded })
    return EXIT_OK
  },
}
