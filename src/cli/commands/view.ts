/** `reagent-flow view`: the trace viewer, a local web app over the trace directory, until SIGINT or SIGTERM. */
import { installCommand, requirePackages, SERVER_PACKAGES } from '../../base/optional-dependency.js'
import { UsageError } from '../../errors/index.js'
import { DEFAULT_NAMESPACE, DEFAULT_ORG } from '../../ledger/identity.js'
import { LEDGER_TOKEN_ENV } from '../../ledger/ledger-option.js'
import { loadPriceTable } from '../../storage/index.js'
import { comparisonPayload } from '../../viewer/comparison-payload.js'
import { intOption, stringOption } from '../args.js'
import { BASELINE_OPTIONS, compareWith, resolveBaseline, RESULTS_OPTION, resultsAndBaseline } from '../baseline-options.js'
import type { Command } from '../command.js'

export const DEFAULT_VIEW_PORT = 4320

export const viewCommand: Command = {
  name: 'view',
  args: '',
  summary: 'the trace viewer: runs, turns, diffs against goldens, in the browser, updated live',
  details: [
    "Serves a web app over the trace directory (--dir): every run and golden, each run's turns and",
    'messages, its error and agent stack trace, the chain of agents, and the diff of a run against its',
    'golden or another run. Pages update when files change; nothing in the directory is ever written',
    '(except what every command does: a run whose process died is written out as interrupted).',
    'Without --token-file it answers loopback addresses only. With one, open the page once as',
    '/?token=<token> (a cookie keeps it); tokens of --org/--namespace narrowed to no agent or session may view.',
    'With --results and --baseline, a Comparison page (#/compare): each test of the results against the baseline, read again at each visit.',
    'Run it beside the run ledger in one process with: reagent-flow serve --view',
    `With --ledger <url>: also the team viewer of that ledger at /ledger/ (its runs, traces, trends), read with the token of ${LEDGER_TOKEN_ENV};`,
    "its runs are diffed against this checkout's goldens (--dir). reagent-flow serve shows the same page at its own /ledger/.",
    `Needs its server's packages, optional peer dependencies of reagent-flow: ${installCommand(SERVER_PACKAGES)}`,
  ],
  options: {
    host: { type: 'string', value: '<address>', default: '127.0.0.1', description: 'the address to listen on; other than loopback needs --token-file' },
    port: { type: 'string', value: '<port>', default: String(DEFAULT_VIEW_PORT), description: 'the port (0 picks a free one)' },
    open: { type: 'boolean', description: "open the page in the browser ($BROWSER, else the system's opener)" },
    'token-file': { type: 'string', value: '<file.json>', description: 'bearer tokens (as reagent-flow serve reads them)' },
    org: { type: 'string', value: '<org>', default: DEFAULT_ORG, description: 'with --token-file: the org whose tokens may view' },
    namespace: { type: 'string', value: '<namespace>', default: DEFAULT_NAMESPACE, description: 'with --token-file: the namespace whose tokens may view' },
    prices: { type: 'string', value: '<file.json>', description: 'prices added over the built-in table, for costs' },
    ledger: { type: 'string', value: '<url>', description: `also show this ledger's runs and trends at /ledger/ (token: ${LEDGER_TOKEN_ENV})` },
    results: RESULTS_OPTION,
    ...BASELINE_OPTIONS,
  },
  positionals: { min: 0, max: 0, names: '' },
  examples: [
    'reagent-flow view --open',
    'reagent-flow view --dir test/.traces --port 0',
    'reagent-flow view --results .reagent/results/ --baseline main-results/',
    'reagent-flow serve --view',
    'REAGENT_LEDGER_TOKEN=... reagent-flow view --ledger https://ledger.internal --open',
  ],
  async run(input, ctx) {
    const sides = resultsAndBaseline(input)
    // Built once before serving, so unreadable results are a usage error now, not a failing page later.
    // The ledger's baseline is read once: the page compares the same runs at every visit.
    const baseline = sides === undefined ? undefined : await resolveBaseline(sides.baseline)
    const comparison = sides === undefined || baseline === undefined ? undefined : () => comparisonPayload(compareWith(baseline, sides.current, input))
    comparison?.()
    const ledgerUrl = stringOption(input, 'ledger') || undefined
    if (ledgerUrl !== undefined && !/^https?:\/\/./.test(ledgerUrl))
      throw new UsageError(`--ledger must be the ledger's http(s) URL, as reagent-flow serve prints it; got ${JSON.stringify(ledgerUrl)}`)
    await requirePackages('the trace viewer', SERVER_PACKAGES)
    const { serveViewer } = await import('../serve-viewer.js')
    return serveViewer(
      {
        dir: ctx.dir,
        host: stringOption(input, 'host') ?? '127.0.0.1',
        port: intOption(input, 'port', DEFAULT_VIEW_PORT, 0, 65_535),
        open: input.options.open === true,
        tokenFile: stringOption(input, 'token-file'),
        org: stringOption(input, 'org') || DEFAULT_ORG,
        namespace: stringOption(input, 'namespace') || DEFAULT_NAMESPACE,
        prices: loadPriceTable(stringOption(input, 'prices')),
        comparison,
        ledger: ledgerUrl === undefined ? undefined : { url: ledgerUrl, token: process.env[LEDGER_TOKEN_ENV] || undefined },
      },
      ctx,
    )
  },
}
