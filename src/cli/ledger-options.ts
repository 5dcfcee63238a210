/** The options `serve` and `mcp` share: where the ledger is, whose it is, and its prices. */
import { DEFAULT_NAMESPACE, DEFAULT_ORG } from '../ledger/identity.js'
import type { ModelCost } from '../trace/cost.js'
import { loadPriceTable } from '../storage/index.js'
import { stringOption } from './args.js'
import type { CommandContext, CommandInput, OptionSpec } from './command.js'

export const LEDGER_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  store: { type: 'string', value: '<dir or postgres URL>', description: 'where the ledger keeps runs (default: the trace directory, --dir)' },
  org: {
    type: 'string',
    value: '<org>',
    default: DEFAULT_ORG,
    description: 'the org of calls that give none, and of the runs session() writes to the directory',
  },
  namespace: { type: 'string', value: '<namespace>', default: DEFAULT_NAMESPACE, description: 'the namespace, likewise' },
  prices: { type: 'string', value: '<file.json>', description: 'prices added over the built-in table, for cost_usd and cost budgets' },
}

export interface LedgerSettings {
  store: string
  org: string
  namespace: string
  prices: ReadonlyMap<string, ModelCost>
}

export function ledgerSettings(input: CommandInput, ctx: CommandContext): LedgerSettings {
  return {
    store: stringOption(input, 'store') || ctx.dir,
    org: stringOption(input, 'org') || DEFAULT_ORG,
    namespace: stringOption(input, 'namespace') || DEFAULT_NAMESPACE,
    prices: loadPriceTable(stringOption(input, 'prices')),
  }
}
