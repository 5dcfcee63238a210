/**
 * Who paid for what in a run: the agent's own calls, and those of the runs
 * that served it without being it (the simulated user, the judges, the
 * simulated tools' model: its helper runs, session/helper-runs.ts). Each is
 * a trace of its own, so the agent's budgets (toCostLessThan,
 * toStayWithinTokens) read the agent's trace alone; this adds them up for
 * `s.spend()`, `reagent-flow show` and the report.
 */
import { priceCall, type ModelCost } from './cost.js'
import { readTokens } from './tokens.js'
import type { RoleSpend, Spend, SpendRole } from './spend-types.js'
import type { Trace } from './types.js'

export type { RoleSpend, Spend, SpendRole } from './spend-types.js'

export const SPEND_ROLES: readonly SpendRole[] = ['agent', 'user', 'judge', 'tools']

function emptySpend(): RoleSpend {
  return { inputTokens: 0, outputTokens: 0, tokens: 0, usd: 0, unpricedModels: [] }
}

/** Sums of per-token prices carry float noise: kept to 12 decimals, far below a cent. */
function roundUsd(usd: number): number {
  return Math.round(usd * 1e12) / 1e12
}

/** Adds what `traces` spent to `into`. */
function addTraces(into: RoleSpend & { priced: number; measured: number }, traces: readonly Trace[], costs: ReadonlyMap<string, ModelCost>): void {
  for (const trace of traces) {
    for (const turn of trace.turns) {
      const usage = turn.llm_call.token_usage
      if (usage === null || usage === undefined) continue
      const { input, output } = readTokens(usage)
      into.inputTokens += input
      into.outputTokens += output
      into.measured += 1
      const priced = priceCall(turn.llm_call, costs)
      if ('usd' in priced) {
        into.usd = (into.usd ?? 0) + priced.usd
        into.priced += 1
      } else {
        const model = turn.llm_call.model ?? '(no model)'
        if (!into.unpricedModels.includes(model)) into.unpricedModels.push(model)
      }
    }
  }
}

function spendOfTraces(traces: readonly Trace[], costs: ReadonlyMap<string, ModelCost>): RoleSpend {
  const sum = { ...emptySpend(), priced: 0, measured: 0 }
  addTraces(sum, traces, costs)
  const { priced, measured, ...spend } = sum
  return { ...spend, tokens: spend.inputTokens + spend.outputTokens, usd: measured > 0 && priced === 0 ? null : roundUsd(spend.usd ?? 0) }
}

/** The spend of an agent's trace and its helper runs' traces (each with its role), priced with `costs`. */
export function spendOf(
  agent: Trace,
  helpers: ReadonlyArray<{ role: Exclude<SpendRole, 'agent'>; trace: Trace }>,
  costs: ReadonlyMap<string, ModelCost>,
): Spend {
  const byRole = (role: Exclude<SpendRole, 'agent'>): RoleSpend =>
    spendOfTraces(
      helpers.filter((helper) => helper.role === role).map((helper) => helper.trace),
      costs,
    )
  const parts = { agent: spendOfTraces([agent], costs), user: byRole('user'), judge: byRole('judge'), tools: byRole('tools') }
  return { ...parts, total: spendOfTraces([agent, ...helpers.map((helper) => helper.trace)], costs) }
}

/** The helper runs of `trace` among `traces`: its children that say their role (`metadata.reagent_role`), as a directory holds them. */
export function helperTracesOf(trace: Trace, traces: readonly Trace[]): Array<{ role: Exclude<SpendRole, 'agent'>; trace: Trace }> {
  const helpers: Array<{ role: Exclude<SpendRole, 'agent'>; trace: Trace }> = []
  for (const candidate of traces) {
    if (candidate.parent_trace_id !== trace.trace_id || candidate.trace_id === trace.trace_id) continue
    const role = candidate.metadata?.['reagent_role']
    if (role === 'user' || role === 'judge' || role === 'tools') helpers.push({ role, trace: candidate })
  }
  return helpers
}
