/**
 * The parts a trace is drawn with: a header with the totals, and one block
 * per turn with what the model asked for and what each tool returned.
 *
 *   refund-agent  completed · 3 turns · 2 tool calls · 412 tokens (380 in / 32 out) · 9ms
 *     ✓ Turn 0  1.3ms  gpt-4o
 *         → lookup_order({"order_id":"42"})
 *           ✓ {"order_id":"42","amount":19.99}  1.1ms
 *
 * The agent stack trace (stack-trace.ts) lays them out, for a failed
 * assertion and for a trace alone (`reagent-flow show`, the demo).
 */
import { countFailedToolCalls, countToolCalls, durationMs, statusOf } from '../trace/facts.js'
import { sumTokens } from '../trace/tokens.js'
import type { Trace, Turn } from '../trace/types.js'
import type { Colors } from './colors.js'
import { formatDuration, formatStatus, oneLine, oneLineText, plural } from './format-value.js'

/** How a turn block is drawn. */
export interface TurnStyle {
  /** Before the turn line. Default: two spaces. */
  indent?: string
  /** Before each tool call (`→ `, or `LLM -> ` in stack traces). */
  callPrefix?: string
  /** Before the model's text answer. */
  textPrefix?: string
  /** Characters of the text answer shown. Default: 100. */
  textWidth?: number
  /** A tool name to make stand out (the one an assertion is about). */
  highlight?: string
  /** Messages of errors shown in full elsewhere (a failed test's own): named only (see errorText). */
  shownElsewhere?: ReadonlySet<string>
}

/** `name: message`, or for an error whose message is shown in full elsewhere (the test's own error, which vitest prints) its name alone, saying so. */
export function errorText(error: { name: string; message: string }, shownElsewhere: ReadonlySet<string> | undefined): string {
  return shownElsewhere?.has(error.message) === true ? `${error.name} (the test's error, shown in full below)` : `${error.name}: ${error.message}`
}

/** `name  status · N turns · N tool calls (N failed) · tokens · duration` */
export function formatHeader(trace: Trace, c: Colors): string {
  const tokens = sumTokens(trace)
  // A completed run whose tools threw must not read as a clean one.
  const failed = countFailedToolCalls(trace)
  const calls = plural(countToolCalls(trace), 'tool call') + (failed === 0 ? '' : ` ${c.red(`(${failed} failed)`)}`)
  const parts = [plural(trace.turns.length, 'turn'), calls]
  if (tokens.measuredTurns > 0) {
    parts.push(`${tokens.input + tokens.output} tokens (${tokens.input} in / ${tokens.output} out)`)
  }
  const duration = durationMs(trace)
  if (duration !== null) parts.push(formatDuration(duration))
  return `${c.bold(trace.name)}  ${formatStatus(statusOf(trace), c)} · ${parts.join(' · ')}`
}

/** The lines of one turn. */
export function formatTurnLines(turn: Turn, c: Colors, style: TurnStyle = {}): string[] {
  const { indent = '  ', callPrefix = `${c.cyan('→')} `, textPrefix = '', textWidth = 100, highlight, shownElsewhere } = style
  const call = turn.llm_call
  const failed = call.error !== undefined || turn.tool_results.some((r) => r.error !== null)
  const mark = failed ? c.red('✗') : c.green('✓')
  const meta = [formatDuration(turn.duration_ms), call.model].filter((p): p is string => p !== null && p !== '')
  // A failure the test injected (the `faults` option) is told apart from one the agent ran into.
  const injected = turn.injected === true || call.injected === true ? `  ${c.yellow('injected fault')}` : ''
  const lines = [`${indent}${mark} Turn ${turn.index}  ${c.dim(meta.join('  '))}${injected}`]
  const inner = `${indent}    `
  const injectedMark = ` ${c.yellow('(injected)')}`
  if (call.error !== undefined)
    lines.push(`${inner}${c.red(`LLM error: ${errorText(call.error, shownElsewhere)}`)}${call.injected === true ? injectedMark : ''}`)
  const injectedResults = Array.isArray(turn.injected_results) ? turn.injected_results : []
  for (const toolCall of call.tool_calls) {
    const name = toolCall.name === highlight ? c.yellow(c.bold(toolCall.name)) : c.bold(toolCall.name)
    lines.push(`${inner}${callPrefix}${name}(${oneLine(toolCall.arguments, 100)})`)
    for (const result of turn.tool_results.filter((r) => r.call_id === toolCall.call_id)) {
      const timing = result.duration_ms > 0 ? `  ${c.dim(formatDuration(result.duration_ms))}` : ''
      lines.push(
        result.error === null
          ? `${inner}  ${c.green('✓')} ${oneLine(result.result)}${timing}`
          : `${inner}  ${c.red(`✗ ${result.error}`)}${injectedResults.includes(result.call_id) ? injectedMark : ''}${timing}`,
      )
    }
  }
  for (const unmatched of turn.unmatched_results ?? []) {
    const result = turn.tool_results.find((r) => r.call_id === unmatched.call_id)
    lines.push(`${inner}${c.yellow('?')} ${unmatched.name} result with no matching call: ${oneLine(result?.error ?? result?.result)}`)
  }
  if (call.response_text !== null) {
    lines.push(`${inner}${textPrefix}${c.magenta('“')}${oneLineText(call.response_text, textWidth)}${c.magenta('”')}`)
  }
  return lines
}
