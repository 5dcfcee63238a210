/**
 * `s.spend()`: what a session and its helper runs (helper-runs.ts: the
 * simulated user, the judges, the simulated tools' model) spent, part by
 * part, priced with the built-in price table (and a `REAGENT_PRICES` file).
 */
import { defaultPriceTable } from '../storage/index.js'
import { spendOf, type Spend } from '../trace/spend.js'
import type { Trace } from '../trace/types.js'
import type { KeptHelperRun } from './helper-run-list.js'

export function sessionSpend(trace: Trace, helpers: readonly KeptHelperRun[]): Spend {
  return spendOf(
    trace,
    helpers.map(({ role, session }) => ({ role, trace: session.trace })),
    defaultPriceTable(),
  )
}
