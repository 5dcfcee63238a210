/** `reagent-flow get <run>`: one run's goal, outcome, usage, cost and budgets. */
import { formatDuration, formatStatus, oneLineText, plural } from '../../report/format-value.js'
import { describeToolError } from '../../report/stack-trace.js'
import { loadPriceTable, loadTrace } from '../../storage/index.js'
import { formatUsd } from '../../trace/cost.js'
import { PRICES_AS_OF } from '../../trace/prices.js'
import { countFailedToolCalls, countToolCalls, durationMs, statusOf, toolErrors, type ToolErrorFact } from '../../trace/facts.js'
import type { Grade, TraceStatus } from '../../trace/types.js'
import { stringOption } from '../args.js'
import { checkBudgets, costOf, type BudgetCheck, type CostOutput } from '../budgets.js'
import { EXIT_CHECK_FAILED, EXIT_OK, type Command, type CommandContext } from '../command.js'
import { formatFacts, formatGrade } from '../format.js'
import { finalResponse, goalOf, tokenTotals, type TokenTotals } from '../run-facts.js'
import { resolveRun } from '../resolve.js'

/** `get --json` */
export interface GetOutput {
  file: string
  name: string
  trace_id: string
  goal: string | null
  status: TraceStatus
  error: { name: string; message: string } | null
  /** Why a cancelled or interrupted run stopped. */
  interruption_reason: string | null
  final_response: string | null
  turns: number
  tool_calls: number
  /** Tool calls whose result was an error. */
  failed_tool_calls: number
  /** Every tool result that was an error, in order (`turn` null for one logged before any turn). */
  tool_errors: ToolErrorFact[]
  tokens: TokenTotals | null
  /** Null when no turn could be priced. */
  cost: CostOutput | null
  elapsed_ms: number | null
  budgets: BudgetCheck[]
  grade: Grade | null
}

function budgetLine(budget: BudgetCheck, c: CommandContext['c']): string {
  const show = (value: number): string => (budget.key === 'budget_usd' ? formatUsd(value) : formatDuration(value * 1000))
  const limit = Number.isNaN(budget.limit) ? '?' : show(budget.limit)
  const head = `${budget.key} ${limit}: `
  if (budget.over === null) return head + c.dim(budget.note ?? 'not checked')
  return head + (budget.over ? c.red(c.bold(`OVER (${show(budget.actual!)})`)) : c.green(`within (${show(budget.actual!)})`))
}

/** Tool errors listed one per line; the rest are counted. */
const MAX_TOOL_ERRORS = 5

function toolErrorLines(errors: readonly ToolErrorFact[]): string[] {
  const lines = errors.slice(0, MAX_TOOL_ERRORS).map((fact) => {
    // One line each, however long the error (a stack, a response body): --json has it whole.
    const error = oneLineText(fact.error, 200)
    return fact.turn === null ? `${fact.tool} failed before the first turn: ${error}` : describeToolError(fact.tool, fact.arguments ?? {}, fact.turn, error)
  })
  if (errors.length > MAX_TOOL_ERRORS) lines.push(`… ${errors.length - MAX_TOOL_ERRORS} more (reagent-flow show draws them all)`)
  return lines
}

function printFacts(out: GetOutput, ctx: CommandContext): void {
  const { c } = ctx
  // A completed run whose tools threw must not read as a clean one.
  const failed = out.failed_tool_calls === 0 ? '' : ` · ${c.red(`${out.failed_tool_calls} of ${plural(out.tool_calls, 'tool call')} failed`)}`
  const facts: Array<[string, string]> = [
    ['name', c.bold(out.name)],
    ['trace_id', out.trace_id],
    ['goal', out.goal ?? c.dim('(no metadata.goal)')],
    ['status', formatStatus(out.status, c) + failed],
  ]
  if (out.error !== null) facts.push(['error', c.red(`${out.error.name}: ${out.error.message}`)])
  if (out.interruption_reason !== null) facts.push(['stopped', c.yellow(out.interruption_reason)])
  for (const [i, line] of toolErrorLines(out.tool_errors).entries()) facts.push([i === 0 ? 'tool error' : '', c.red(line)])
  facts.push(
    ['response', out.final_response ?? c.dim('(no text answer)')],
    ['turns', `${out.turns} (${plural(out.tool_calls, 'tool call')})`],
    ['tokens', out.tokens === null ? c.dim('(not recorded)') : `${out.tokens.input} in / ${out.tokens.output} out (${out.tokens.total})`],
  )
  if (out.cost !== null) {
    const unpriced = out.cost.unpriced.length === 0 ? '' : `; not priced: ${out.cost.unpriced.join(', ')}`
    facts.push(['cost', `${formatUsd(out.cost.usd)} (${out.cost.priced_turns} of ${plural(out.turns, 'turn')} priced${unpriced})`])
  }
  facts.push(['elapsed', out.elapsed_ms === null ? c.dim('(no end time)') : formatDuration(out.elapsed_ms)])
  for (const [i, budget] of out.budgets.entries()) facts.push([i === 0 ? 'budgets' : '', budgetLine(budget, c)])
  if (out.grade !== null) facts.push(['grade', formatGrade(out.grade, c)])
  facts.push(['file', out.file])
  ctx.print(formatFacts(facts, c))
}

export const getCommand: Command = {
  name: 'get',
  args: '<run>',
  summary: "one run's goal, outcome, tool errors, tokens, cost, elapsed time and budgets",
  details: [
    'The goal is metadata.goal. Budgets are metadata.budget_usd and metadata.budget_seconds;',
    'get exits with 1 when the run went over one.',
    `The cost is priced with the built-in table of OpenAI and Anthropic models (as of ${PRICES_AS_OF}).`,
    'A price file adds models or overrides prices: model-name prefixes to USD per 1M tokens,',
    '  { "gpt-4o": { "input": 2.5, "output": 10 }, "my-fine-tune": { "input": 3, "output": 12 } }',
  ],
  options: {
    prices: { type: 'string', value: '<file.json>', description: 'prices added over the built-in table' },
  },
  positionals: { min: 1, max: 1, names: '<run> (a trace name, a trace file or a trace_id)' },
  examples: ['reagent-flow get refund-agent', 'reagent-flow get refund-agent --prices prices.json', 'reagent-flow get 01JV6Q3M8X --json'],
  run(input, ctx) {
    const costs = loadPriceTable(stringOption(input, 'prices'))
    const file = resolveRun(input.positionals[0]!, ctx.dir)
    const trace = loadTrace(file)
    const cost = costOf(trace, costs)
    const out: GetOutput = {
      file,
      name: trace.name,
      trace_id: trace.trace_id,
      goal: goalOf(trace),
      status: statusOf(trace),
      error: trace.error == null ? null : { name: trace.error.name, message: trace.error.message },
      interruption_reason: trace.interruption_reason ?? null,
      final_response: finalResponse(trace),
      turns: trace.turns.length,
      tool_calls: countToolCalls(trace),
      failed_tool_calls: countFailedToolCalls(trace),
      tool_errors: toolErrors(trace),
      tokens: tokenTotals(trace),
      cost,
      elapsed_ms: durationMs(trace),
      budgets: checkBudgets(trace, cost),
      grade: trace.grade ?? null,
    }
    if (ctx.json) ctx.printJson(out)
    else printFacts(out, ctx)
    return out.budgets.some((budget) => budget.over === true) ? EXIT_CHECK_FAILED : EXIT_OK
  },
}
