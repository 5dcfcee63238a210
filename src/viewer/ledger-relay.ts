/**
 * The team viewer over a ledger elsewhere (`reagent-flow view --ledger
 * <url>`): its reads go to that ledger through the typed client, with the
 * token of REAGENT_LEDGER_TOKEN, so the page sees what that token sees
 * there. The local server's own caller (loopback, or its token file) only
 * decides who may open the page.
 */
import type { LedgerClient } from '../ledger/client.js'
import type { OperationName } from '../ledger/input-schemas.js'
import type { LedgerCaller } from './ledger-routes.js'

type Body = Record<string, unknown>

export function ledgerRelay(client: LedgerClient): LedgerCaller {
  return {
    call(operation: OperationName, _caller, body): Promise<object> {
      const input = body as Body
      switch (operation) {
        case 'run.list':
          return client.list(input)
        case 'run.get':
          return client.get(input as { run_id: string })
        case 'trace.get':
          return client.getTrace(input as { run_id: string })
        case 'run.stats':
          return client.stats(input)
        default:
          // The viewer reads only; nothing else is relayed.
          throw new TypeError(`the team viewer relays reads only, not ${operation}`)
      }
    },
  }
}
