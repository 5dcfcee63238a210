/**
 * The team viewer's data: the ledger's runs a page at a time, a run with
 * its trace, the Trends page's series (ledger-routes.ts answers them). It is
 * also a Source, so the local viewer's Run and Diff pages draw the ledger's
 * runs unchanged; the run last read is kept, so the page above a Run page
 * and the Run page itself ask for it once.
 */
import type { LedgerRunPayload, LedgerRunsPayload, TrendsPayload } from '../ledger-types.js'
import type { RunPayload } from '../types.js'
import { getJson, type Source } from './source.js'

export interface LedgerSource extends Source {
  runsPage(params: URLSearchParams): Promise<LedgerRunsPayload>
  ledgerRun(id: string): Promise<LedgerRunPayload>
  trends(params: URLSearchParams): Promise<TrendsPayload>
}

const paramsOf = (params: URLSearchParams): Record<string, string> => Object.fromEntries(params)

export function ledgerSource(): LedgerSource {
  let last: { id: string; payload: Promise<LedgerRunPayload> } | undefined
  const ledgerRun = (id: string): Promise<LedgerRunPayload> => {
    if (last?.id !== id) last = { id, payload: getJson<LedgerRunPayload>('./api/run', { id }) }
    const held = last
    // A failed read is not kept: the next visit asks again.
    held.payload.catch(() => {
      if (last === held) last = undefined
    })
    return held.payload
  }
  return {
    kind: 'server',
    generatedAt: null,
    hasComparison: false,
    comparison: () => Promise.reject(new Error('the team viewer compares no results files; reagent-flow compare does')),
    runs: async () => ({ dir: '', runs: [], skipped: [], prices_as_of: '', version: 0 }),
    async run(id): Promise<RunPayload> {
      const payload = await ledgerRun(id)
      // Read again next time: the run page reloads a run that changed.
      last = undefined
      if (payload.view === null) throw new Error(`run ${JSON.stringify(id)} has no trace in the ledger: its client never sent one with trace.put`)
      return payload.view
    },
    diff: (request) => getJson('./api/diff', { ...request }),
    subscribe: () => () => {},
    runsPage: (params) => getJson<LedgerRunsPayload>('./api/runs', paramsOf(params)),
    ledgerRun,
    trends: (params) => getJson<TrendsPayload>('./api/trends', paramsOf(params)),
  }
}
