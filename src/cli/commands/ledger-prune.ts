/**
 * `reagent-flow ledger prune --older-than 90d`: retention (run.prune) of a
 * ledger server (`--ledger`, REAGENT_LEDGER_URL, with an admin token in
 * REAGENT_LEDGER_TOKEN), or of a store opened here (`--store`, default the
 * trace directory, as serve opens it; a directory a server is serving is
 * locked: prune through the server then).
 */
import { createLedgerClient } from '../../ledger/client.js'
import { LEDGER_TOKEN_ENV, LEDGER_URL_ENV } from '../../ledger/ledger-option.js'
import type { RunPruneInput } from '../../ledger/input-types.js'
import type { RunPruneResult } from '../../ledger/output-schemas.js'
import { UsageError } from '../../errors/index.js'
import { ageOption } from '../age-option.js'
import { intOption, stringOption } from '../args.js'
import { EXIT_OK, type Command, type CommandContext } from '../command.js'
import { LEDGER_OPTIONS, ledgerSettings } from '../ledger-options.js'

// Prices price runs; a prune removes them.
const { prices: _prices, ...STORE_OPTIONS } = LEDGER_OPTIONS

/** run.prune through a store opened here, as the single user of its --org and --namespace (an admin). */
async function pruneStore(store: string, org: string, namespace: string, input: RunPruneInput): Promise<{ where: string; out: RunPruneResult }> {
  const [{ openStore }, { LedgerService }, { singleUser }] = await Promise.all([
    import('../../ledger/open-store.js'),
    import('../../ledger/service.js'),
    import('../../ledger/identity.js'),
  ])
  const opened = await openStore({ store, org, namespace, watch: false })
  try {
    const out = (await new LedgerService(opened).call('run.prune', singleUser(org, namespace), input)) as RunPruneResult
    return { where: `the ${opened.kind} store ${opened.location} (org ${org}, namespace ${namespace})`, out }
  } finally {
    await opened.close()
  }
}

function report(ctx: CommandContext, where: string, out: RunPruneResult): void {
  const { active, last, baseline, failed } = out.kept
  const before = `${out.before.slice(0, 16).replace('T', ' ')} UTC`
  const verb = out.dry_run ? 'would remove' : 'removed'
  ctx.print(`${verb} ${out.removed} run(s) started before ${before} from ${where}`)
  ctx.print(`kept: ${active} active, ${last} newest of their agent, ${baseline} of a branch's latest results, ${failed} failed`)
  if (out.partitions_dropped > 0) ctx.print(`${out.partitions_dropped} monthly partition(s) dropped whole`)
}

export const ledgerPruneCommand: Command = {
  name: 'ledger prune',
  args: '',
  summary: "removes the ledger's runs (and their traces) older than --older-than, keeping active runs, each agent's newest and baselines",
  details: [
    `The ledger is --ledger or ${LEDGER_URL_ENV}, with an admin token in ${LEDGER_TOKEN_ENV}; without one, the store is opened here (--store, default the trace directory).`,
    "Never removed: an active run, the newest --keep-last runs of each agent (at least 1), a run of a test in a branch's latest results (at their commit).",
    '--keep-failed also keeps the runs that failed or were graded fail. --dry-run counts and removes nothing.',
    "A directory store removes trace files session() wrote as well as the ledger's own; an interrupted prune is finished at the next prune or start.",
    'reagent-flow serve --retention <age> prunes the same way daily.',
  ],
  options: {
    ledger: { type: 'string', value: '<url>', description: `the ledger's URL, as reagent-flow serve prints it (default: ${LEDGER_URL_ENV})` },
    ...STORE_OPTIONS,
    'older-than': { type: 'string', value: '<age>', description: 'remove runs started longer ago than this: 36h, 90d, 12w (required)' },
    'keep-failed': { type: 'boolean', description: 'keep the runs that failed or were graded fail' },
    'keep-last': { type: 'string', value: '<N>', default: '1', description: 'keep the newest N runs of each agent, whatever their age' },
    per: { type: 'string', value: '<group>', choices: ['agent'], default: 'agent', description: '--keep-last counts per agent' },
    'dry-run': { type: 'boolean', description: 'count what would be removed; remove nothing' },
  },
  positionals: { min: 0, max: 0, names: '' },
  examples: [
    'reagent-flow ledger prune --older-than 90d --dry-run',
    'reagent-flow ledger prune --older-than 90d --keep-failed --keep-last 5 --per agent',
    'REAGENT_LEDGER_TOKEN=<admin token> reagent-flow ledger prune --ledger https://ledger.internal --older-than 12w',
    'reagent-flow ledger prune --store postgres://ledger@db.internal/ledger --org acme --namespace ci --older-than 90d',
  ],
  async run(input, ctx) {
    const olderThan = ageOption(input, 'older-than')
    if (olderThan === undefined) throw new UsageError('ledger prune needs --older-than <age>: how old a run must be to be removed (36h, 90d, 12w)')
    const body: RunPruneInput = {
      older_than: olderThan,
      keep_failed: input.options['keep-failed'] === true,
      keep_last: intOption(input, 'keep-last', 1, 1, 1_000_000),
      dry_run: input.options['dry-run'] === true,
    }
    const store = stringOption(input, 'store')
    if (store !== undefined && stringOption(input, 'ledger') !== undefined) {
      throw new UsageError('ledger prune takes --ledger <url> (a server) or --store <dir or postgres URL> (a store opened here), not both')
    }
    const url = store === undefined ? stringOption(input, 'ledger') || process.env[LEDGER_URL_ENV] || undefined : undefined
    let where: string
    let out: RunPruneResult
    if (url !== undefined) {
      const client = createLedgerClient(url, { token: process.env[LEDGER_TOKEN_ENV] || undefined })
      out = await client.prune(body)
      where = `the ledger at ${client.url}`
    } else {
      const settings = ledgerSettings(input, ctx)
      ;({ where, out } = await pruneStore(settings.store, settings.org, settings.namespace, body))
    }
    if (ctx.json) ctx.printJson({ from: where, ...out })
    else report(ctx, where, out)
    return EXIT_OK
  },
}
