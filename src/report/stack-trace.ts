/**
 * The agent stack trace: what a failed assertion prints. Where a program's
 * stack trace shows the calls that led to an exception, this shows the turns
 * that led to a failed assertion, then the assertion and its probable cause.
 *
 *   refund-agent  completed · 3 turns · 2 tool calls · 9ms
 *     ✓ Turn 0  1.3ms  gpt-4o
 *         LLM -> lookup_order({"order_id":"42"})
 *           ✓ {"order_id":"42","eligible":false}  1.1ms
 *     ✓ Turn 1  0µs  gpt-4o
 *         LLM -> “I cannot refund this order.”
 *
 *   ASSERTION FAILED: "issue_refund" was never called (2 turns, 1 tool calls)
 *   PROBABLE CAUSE: the agent called lookup_order (turn 0), and answered in turn 1: “I cannot refund this order.”
 *
 * Contents: formatStackTrace (layout), visibleTurns (long traces), traceCauses
 * (what the trace itself says went wrong).
 */
import { statusOf } from '../trace/facts.js'
import type { Trace, Turn } from '../trace/types.js'
import { colors, type Colors } from './colors.js'
import { oneLine } from './format-value.js'
import { errorText, formatHeader, formatTurnLines } from './summary.js'

export interface StackTraceOptions {
  /**
   * The failed assertion, one line: `"lookup" was never called (3 turns, 2 tool calls)`.
   * Without it, the trace is drawn alone, with no assertion and no probable cause (`reagent-flow show`).
   */
  assertion?: string
  /** The tool the assertion is about: highlighted, and its last output is a candidate cause. */
  tool?: string
  /** The assertion's own findings, most telling first; shown before what the trace says (a typo, the closest arguments). */
  causes?: readonly string[]
  /** Background facts, shown after what the trace says (what was called instead). */
  facts?: readonly string[]
  /** Colour the output. Default: when stdout is a terminal and NO_COLOR is unset (FORCE_COLOR forces it). */
  color?: boolean
  /**
   * Messages of errors shown in full next to this output (a failed test's own
   * errors, which vitest prints): an error of the trace with one of them is
   * named, not printed again.
   */
  shownElsewhere?: readonly string[]
  /** Lines drawn between the header and the turns (`reagent-flow show`: the run's conversation as a chat), followed by a blank line. */
  preface?: readonly string[]
}

/** Traces longer than this show their first and last turns, and the turns that matter, only. */
const MAX_TURNS_SHOWN = 40
const HEAD_TURNS = 10
const TAIL_TURNS = 20
const MAX_CAUSES = 3
const CAUSE_LABEL = 'PROBABLE CAUSE: '

function matters(turn: Turn, tool: string | undefined): boolean {
  return (
    turn.llm_call.error !== undefined ||
    turn.tool_results.some((r) => r.error !== null) ||
    (tool !== undefined && turn.llm_call.tool_calls.some((call) => call.name === tool))
  )
}

type Row = { turn: Turn } | { hidden: number; from: number; to: number }

/** The turns to draw; a run of hidden turns becomes one row. */
function visibleTurns(trace: Trace, tool: string | undefined): Row[] {
  const turns = trace.turns
  if (turns.length <= MAX_TURNS_SHOWN) return turns.map((turn) => ({ turn }))
  const keep = new Set<number>()
  for (let i = 0; i < HEAD_TURNS; i++) keep.add(i)
  for (let i = turns.length - TAIL_TURNS; i < turns.length; i++) keep.add(i)
  const focus = turns.filter((turn, i) => !keep.has(i) && matters(turn, tool)).slice(-10)
  for (const turn of focus) keep.add(turns.indexOf(turn))
  const out: Row[] = []
  let hiddenFrom = -1
  turns.forEach((turn, i) => {
    if (!keep.has(i)) {
      if (hiddenFrom < 0) hiddenFrom = i
      return
    }
    if (hiddenFrom >= 0) out.push({ hidden: i - hiddenFrom, from: turns[hiddenFrom]!.index, to: turns[i - 1]!.index })
    hiddenFrom = -1
    out.push({ turn })
  })
  return out
}

/** `search({"q":"rome"}) failed in turn 0: TimeoutError: ...`, the sentence for a tool error everywhere. */
export function describeToolError(name: string, args: unknown, turn: number, error: string): string {
  return `${name}(${oneLine(args, 60)}) failed in turn ${turn}: ${error}`
}

/** What the trace itself says went wrong: the last tool error, a failed LLM call, the run's error, the named tool's last output. */
function traceCauses(trace: Trace, tool: string | undefined): string[] {
  const causes: string[] = []
  let lastError: string | undefined
  let lastOutput: string | undefined
  let llmError: string | undefined
  for (const turn of trace.turns) {
    if (turn.llm_call.error !== undefined) {
      llmError = `the LLM call of turn ${turn.index} failed: ${turn.llm_call.error.name}: ${turn.llm_call.error.message}`
    }
    for (const result of turn.tool_results) {
      const call = turn.llm_call.tool_calls.find((c) => c.call_id === result.call_id)
      const name = call?.name ?? turn.unmatched_results?.find((r) => r.call_id === result.call_id)?.name ?? 'a tool'
      if (result.error !== null) lastError = describeToolError(name, call?.arguments ?? {}, turn.index, result.error)
      // The named tool's last answer, unless that answer was an error (then the error says it).
      if (name === tool) lastOutput = result.error === null ? `${name} last returned ${oneLine(result.result, 100)} (turn ${turn.index})` : undefined
    }
  }
  if (lastError !== undefined) causes.push(lastError)
  if (llmError !== undefined) causes.push(llmError)
  if (trace.error) causes.push(`the run ended with ${trace.error.name}: ${trace.error.message}`)
  const status = statusOf(trace)
  if (status === 'cancelled' || status === 'interrupted')
    causes.push(`the run was ${status}${trace.interruption_reason === undefined ? '' : ` (${trace.interruption_reason})`} before it finished`)
  if (lastOutput !== undefined) causes.push(lastOutput)
  return causes
}

function causeLines(trace: Trace, options: StackTraceOptions, c: Colors): string[] {
  const all = [...(options.causes ?? []), ...traceCauses(trace, options.tool), ...(options.facts ?? [])]
  const causes = [...new Set(all)].slice(0, MAX_CAUSES)
  if (causes.length === 0) causes.push('nothing in the trace points to one: no tool error, no failed LLM call')
  const pad = ' '.repeat(CAUSE_LABEL.length)
  return causes.map((cause, i) => (i === 0 ? `${c.yellow(c.bold(CAUSE_LABEL))}${cause}` : `${pad}${cause}`))
}

/** Why a run did not finish: `⏹ cancelled: SIGINT`, `⏹ interrupted: process 123 exited before the session closed`, `● active: still being recorded`. */
function stoppedLine(trace: Trace): string | undefined {
  const status = statusOf(trace)
  if (status === 'active') return '● active: still being recorded'
  if (status !== 'cancelled' && status !== 'interrupted') return undefined
  return `⏹ ${status}${trace.interruption_reason === undefined ? '' : `: ${trace.interruption_reason}`}`
}

/** The agent stack trace of a failed assertion (or of a trace alone), ending without a newline. */
export function formatStackTrace(trace: Trace, options: StackTraceOptions = {}): string {
  const c = colors(options.color)
  const lines = [formatHeader(trace, c)]
  if (trace.parent_trace_id !== null && trace.parent_trace_id !== undefined) lines.push(c.dim(`  child of ${trace.parent_trace_id}`))
  if (options.preface !== undefined && options.preface.length > 0) lines.push(...options.preface, '')
  if (trace.turns.length === 0) lines.push(c.dim('  (no turns recorded)'))
  const shownElsewhere = new Set(options.shownElsewhere)
  const style = {
    callPrefix: `${c.cyan('LLM ->')} `,
    textPrefix: `${c.cyan('LLM ->')} `,
    textWidth: 80,
    shownElsewhere,
    ...(options.tool === undefined ? {} : { highlight: options.tool }),
  }
  for (const row of visibleTurns(trace, options.tool)) {
    if ('turn' in row) lines.push(...formatTurnLines(row.turn, c, style))
    else lines.push(c.dim(`  … ${row.hidden} turns not shown (turns ${row.from}–${row.to})`))
  }
  if (trace.error) lines.push(`  ${c.red(`✗ ${errorText(trace.error, shownElsewhere)}`)}`)
  const stopped = stoppedLine(trace)
  if (stopped !== undefined) lines.push(`  ${c.yellow(stopped)}`)
  if (options.assertion !== undefined) {
    lines.push('', `${c.red(c.bold('ASSERTION FAILED:'))} ${options.assertion}`, ...causeLines(trace, options, c))
  }
  return lines.join('\n')
}
