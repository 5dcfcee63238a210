/**
 * Whether the agent called a tool before a given exchange of a conversation:
 * "it looked the order up before it promised a refund". Which turns belong
 * to which exchange comes from the agent's replies in the conversation record
 * (`turns`: the turns recorded while the agent produced that reply).
 */
import { oneLine, plural } from '../report/format-value.js'
import type { ConversationRecord, Trace } from '../trace/types.js'
import { requireToolName, toTrace, type TraceSource } from './arguments.js'
import { failConversation } from './conversation-fail.js'
import { repliesOf, requireConversation, requireExchange } from './conversation-record.js'
import { didYouMean, whatWasCalled } from './facts.js'
import { callsOf, type CallRecord } from './tool-calls.js'

/** A call of the tool, with the exchange whose reply its turn produced (undefined: a turn outside every reply). */
interface ExchangeCall {
  record: CallRecord
  exchange: number | undefined
}

/** The exchange whose reply recorded each turn. */
function exchangesByTurn(record: ConversationRecord): Map<number, number> {
  const byTurn = new Map<number, number>()
  for (const reply of repliesOf(record)) for (const turn of reply.turns ?? []) byTurn.set(turn, reply.exchange)
  return byTurn
}

/** Every call of `tool`, in order, with its exchange. */
function callsByExchange(trace: Trace, record: ConversationRecord, tool: string): ExchangeCall[] {
  const byTurn = exchangesByTurn(record)
  return callsOf(trace, tool).map((call) => ({ record: call, exchange: byTurn.get(call.turn.index) }))
}

/** The calls of `tool` made while the agent replied in an exchange before `n`. */
function callsBefore(calls: readonly ExchangeCall[], n: number): ExchangeCall[] {
  return calls.filter((call) => call.exchange !== undefined && call.exchange < n)
}

/** `exchange 2 (turn 4)`, `turn 9, outside the agent's replies`. */
function whereInConversation(call: ExchangeCall): string {
  const turn = `turn ${call.record.turn.index}`
  return call.exchange === undefined ? `${turn}, outside the agent's replies` : `exchange ${call.exchange} (${turn})`
}

/** The exchange argument: at least 2, since no exchange comes before the first. */
export function requireLaterExchange(fn: string, n: unknown): number {
  const exchange = requireExchange(fn, 'n', n)
  if (exchange >= 2) return exchange
  throw new RangeError(`${fn}(): n must be a whole number >= 2 (no exchange comes before exchange 1), got 1 (number).`)
}

/** The exchanges just before `n`, where the call was expected. */
const lastBefore = (n: number): { from: number; to: number } => ({ from: Math.max(1, n - 3), to: n - 1 })

/**
 * Passes when the agent called `tool` while replying in an exchange before
 * exchange `n` (so `n = 3` means in exchange 1 or 2).
 * @example assertCalledBeforeExchange(conv, 'lookup_order', 3)
 */
export function assertCalledBeforeExchange(source: TraceSource, tool: string, n: number): void {
  const fn = 'assertCalledBeforeExchange'
  const trace = toTrace(fn, source)
  requireToolName(fn, 'tool', tool)
  const exchange = requireLaterExchange(fn, n)
  const record = requireConversation(fn, trace)
  const calls = callsByExchange(trace, record, tool)
  if (callsBefore(calls, exchange).length > 0) return
  const first = calls[0]
  const headline = `"${tool}" was not called before exchange ${exchange}: ${first === undefined ? 'it was never called' : `it was first called in ${whereInConversation(first)}`}`
  const shorter = record.exchanges < exchange - 1 ? `the conversation had ${plural(record.exchanges, 'exchange')}` : undefined
  failConversation(trace, record, headline, {
    tool,
    exchanges: lastBefore(exchange),
    causes: first === undefined ? [didYouMean(trace, tool), shorter, whatWasCalled(trace)] : [shorter],
  })
}

/**
 * Passes when the agent did not call `tool` while replying in any exchange
 * before exchange `n`; calls from exchange `n` on are allowed.
 * @example assertNotCalledBeforeExchange(conv, 'issue_refund', 2)
 */
export function assertNotCalledBeforeExchange(source: TraceSource, tool: string, n: number): void {
  const fn = 'assertNotCalledBeforeExchange'
  const trace = toTrace(fn, source)
  requireToolName(fn, 'tool', tool)
  const exchange = requireLaterExchange(fn, n)
  const record = requireConversation(fn, trace)
  const early = callsBefore(callsByExchange(trace, record, tool), exchange)
  const first = early[0]
  if (first === undefined) return
  const at = first.exchange ?? exchange - 1
  failConversation(trace, record, `"${tool}" was called before exchange ${exchange}: in ${whereInConversation(first)}`, {
    tool,
    exchanges: { from: at, to: at },
    causes: [`the first call was ${tool}(${oneLine(first.record.call.arguments, 100)}) in turn ${first.record.turn.index}`],
  })
}
