/**
 * The spend of a run with helper runs (a simulated user, judges, simulated
 * tools: its children in the directory that say their role), for the Run
 * page's "Spend" fact: the same split as `s.spend()` and `reagent-flow show`.
 */
import { pushTo } from '../base/list-map.js'
import { helperTracesOf, spendOf, type Spend } from '../trace/spend.js'
import type { Trace } from '../trace/types.js'
import type { TraceIndex } from './trace-index.js'
import type { RunSummary } from './types.js'

/** The runs of `runs` by the trace_id of their parent: read once for a report of many runs. */
export function runsByParent(runs: readonly RunSummary[]): Map<string, RunSummary[]> {
  const byParent = new Map<string, RunSummary[]>()
  for (const summary of runs) if (summary.kind === 'run' && summary.parent_trace_id !== null) pushTo(byParent, summary.parent_trace_id, summary)
  return byParent
}

/** Undefined for a run without helper runs; a helper that cannot be read is left out. `byParent`: runsByParent of the index's runs. */
export function runSpend(index: TraceIndex, trace: Trace, byParent = runsByParent(index.payload().runs)): Spend | undefined {
  const children: Trace[] = []
  for (const summary of byParent.get(trace.trace_id) ?? []) {
    try {
      const child = index.trace(summary.id)
      if (child !== undefined) children.push(child)
    } catch {
      // Unreadable since it was listed: the Runs page says so.
    }
  }
  const helpers = helperTracesOf(trace, children)
  return helpers.length === 0 ? undefined : spendOf(trace, helpers, index.prices)
}
