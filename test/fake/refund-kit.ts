/**
 * The agent every scripted-model test runs, in each SDK: look order 42 up,
 * refund it, then say so. One script drives them all; its last step is a
 * function that answers from the tool result the agent sent back.
 */
import { expect } from 'vitest'
import type { Script, ScriptMessage, ScriptRequest } from '../../src/entries/fake.js'
import type { Trace } from '../../src/entries/index.js'

export const QUESTION = 'Refund order 42, please.'
export const FINAL_ANSWER = 'Done: Refunded 19.99 on order 42.'

export const ORDER = { order_id: '42', amount: 19.99, status: 'delivered' }

export interface RefundArgs {
  order_id: string
  amount: number
}

export function lookupOrder({ order_id }: { order_id: string }): typeof ORDER {
  return { ...ORDER, order_id }
}

export function issueRefund({ order_id, amount }: RefundArgs): string {
  return `Refunded ${amount} on order ${order_id}.`
}

/** JSON Schemas of the two tools, for the SDKs that take them as they are. */
export const LOOKUP_PARAMETERS = { type: 'object' as const, properties: { order_id: { type: 'string' } }, required: ['order_id'], additionalProperties: false }
export const REFUND_PARAMETERS = {
  type: 'object' as const,
  properties: { order_id: { type: 'string' }, amount: { type: 'number' } },
  required: ['order_id', 'amount'],
  additionalProperties: false,
}

/** The text of the last tool message of a request: what the last tool returned. */
export function lastToolResult(request: ScriptRequest): string {
  const last = request.messages.at(-1)
  if (last?.role !== 'tool') throw new Error(`expected the call to end with a tool result, got ${JSON.stringify(last)}`)
  return last.content
}

export function refundScript(): Script {
  return [
    { toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }], usage: { inputTokens: 50, outputTokens: 10 } },
    {
      text: 'Refunding now.',
      toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }],
      usage: { inputTokens: 80, outputTokens: 20 },
    },
    (request) => ({ text: `Done: ${lastToolResult(request)}`, usage: { inputTokens: 120, outputTokens: 8 } }),
  ]
}

/** What a recorded run of the refund agent says, turn by turn, without clock readings. */
export function refundSummary(trace: Trace): unknown[] {
  return trace.turns.map((turn) => ({
    text: turn.llm_call.response_text,
    calls: turn.llm_call.tool_calls.map((call) => [call.name, call.arguments, call.call_id]),
    results: turn.tool_results.map((result) => [result.call_id, result.result, result.error]),
    tokens: [turn.llm_call.token_usage?.['input_tokens'], turn.llm_call.token_usage?.['output_tokens']],
    model: turn.llm_call.model,
  }))
}

/** The refund run as every adapter records it; `idPrefix` is the provider's (`call_`, `toolu_`), `model` the one asked for. */
export function expectRefundRun(trace: Trace, { idPrefix, model }: { idPrefix: string; model: string }): void {
  expect(refundSummary(trace)).toEqual([
    { text: null, calls: [['lookup_order', { order_id: '42' }, `${idPrefix}1_0`]], results: [[`${idPrefix}1_0`, ORDER, null]], tokens: [50, 10], model },
    {
      text: 'Refunding now.',
      calls: [['issue_refund', { order_id: '42', amount: 19.99 }, `${idPrefix}2_0`]],
      results: [[`${idPrefix}2_0`, 'Refunded 19.99 on order 42.', null]],
      tokens: [80, 20],
      model,
    },
    { text: FINAL_ANSWER, calls: [], results: [], tokens: [120, 8], model },
  ])
  expect(trace.status).toBe('completed')
}

/** The conversation the refund agent sends with its third call, as a function step sees it, after its system prompt if it has one. */
export function refundConversation(idPrefix: string, system?: string): ScriptMessage[] {
  return [
    ...(system === undefined ? [] : [{ role: 'system' as const, content: system }]),
    { role: 'user', content: QUESTION },
    { role: 'assistant', content: '', toolCalls: [{ id: `${idPrefix}1_0`, name: 'lookup_order', arguments: { order_id: '42' } }] },
    { role: 'tool', content: JSON.stringify(ORDER), toolCallId: `${idPrefix}1_0`, name: 'lookup_order' },
    { role: 'assistant', content: 'Refunding now.', toolCalls: [{ id: `${idPrefix}2_0`, name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] },
    { role: 'tool', content: 'Refunded 19.99 on order 42.', toolCallId: `${idPrefix}2_0`, name: 'issue_refund' },
  ]
}

/** The refund agent's tools, by name and description, as a function step sees them. */
export const REFUND_TOOLS = [
  ['lookup_order', 'Look an order up by id.'],
  ['issue_refund', 'Refund an order.'],
]
