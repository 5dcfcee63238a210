import { describe, expect, it } from 'vitest'
import { toOtlp, type OtlpSpan } from '../../src/entries/otel.js'
import { agentsChain, handLoggedChain } from './chains.js'
import { decodeWithOtlpDefinitions, hexIds, withStringInts } from './helpers.js'

function spansOf(request: ReturnType<typeof toOtlp>): OtlpSpan[] {
  return request.resourceSpans[0]!.scopeSpans![0]!.spans!
}

function attributesOf(span: OtlpSpan): Record<string, unknown> {
  return Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, value]))
}

describe('toOtlp: traces as OTLP/JSON spans in the GenAI conventions', () => {
  it('writes one invoke_agent span per run (the child under its parent), a chat span per LLM call, an execute_tool span per result', async () => {
    const chain = await agentsChain()
    const spans = spansOf(toOtlp(chain))
    expect(spans.map((span) => span.name)).toEqual([
      'invoke_agent support',
      'chat gpt-4o-mini-2024-07-18',
      'execute_tool transfer_to_Billing_agent',
      'invoke_agent Billing agent',
      'chat gpt-4o-mini-2024-07-18',
      'execute_tool lookup_invoice',
      'chat gpt-4o-mini-2024-07-18',
    ])
    const [support, chat, handoff, billing] = spans
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1)
    expect(support!.parentSpanId).toBeUndefined()
    expect([chat!.parentSpanId, handoff!.parentSpanId, billing!.parentSpanId]).toEqual([support!.spanId, support!.spanId, support!.spanId])
    expect(spans.slice(4).map((span) => span.parentSpanId)).toEqual([billing!.spanId, billing!.spanId, billing!.spanId])

    const supportAttributes = attributesOf(support!)
    expect(supportAttributes).toMatchObject({
      'gen_ai.operation.name': { stringValue: 'invoke_agent' },
      'gen_ai.agent.name': { stringValue: 'support' },
      'gen_ai.agent.id': { stringValue: chain.traceId },
      'gen_ai.provider.name': { stringValue: 'openai' },
      'gen_ai.conversation.id': { stringValue: 'conversation-7' },
      'user.id': { stringValue: 'user-42' },
    })
    const { 'reagent_flow.turn': turn, 'reagent_flow.llm_call': llmCall, ...chatAttributes } = attributesOf(chat!)
    expect(chatAttributes).toEqual({
      'gen_ai.operation.name': { stringValue: 'chat' },
      'gen_ai.provider.name': { stringValue: 'openai' },
      'gen_ai.request.model': { stringValue: 'gpt-4o-mini-2024-07-18' },
      'gen_ai.response.model': { stringValue: 'gpt-4o-mini-2024-07-18' },
      'gen_ai.usage.input_tokens': { intValue: 121 },
      'gen_ai.usage.output_tokens': { intValue: 28 },
      'gen_ai.response.finish_reasons': { arrayValue: { values: [{ stringValue: 'tool_calls' }] } },
    })
    expect(JSON.parse((turn as { stringValue: string }).stringValue)).toMatchObject({ extra: { guardrails: [{ name: 'no_card_numbers', triggered: false }] } })
    expect(JSON.parse((llmCall as { stringValue: string }).stringValue)).toEqual({
      token_usage: { input_tokens: 121, output_tokens: 28, total_tokens: 149 },
      // The tools the call offered (its handoff), by the id of their set on the trace: tool_sets travels with the run span's fields.
      extra: { tool_set: 'ts_4a21b72e8512' },
    })
    expect(attributesOf(spans[5]!)).toEqual({
      'gen_ai.operation.name': { stringValue: 'execute_tool' },
      'gen_ai.tool.name': { stringValue: 'lookup_invoice' },
      'gen_ai.tool.call.id': { stringValue: 'call_l00kup1nv01ce42xYz9Q' },
      'gen_ai.tool.type': { stringValue: 'function' },
      'reagent_flow.tool_result': { stringValue: '{"turn":0}' },
    })
  })

  it('keeps content out unless asked: no messages, text, arguments, results or handoff context without includeContent', async () => {
    const chain = await agentsChain()
    const without = JSON.stringify(toOtlp(chain))
    for (const content of ['charged twice', 'gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.result', '19.99', 'handoff_context\\":{']) {
      expect(without).not.toContain(content)
    }
    const withContent = toOtlp(chain, { includeContent: true })
    const chat = attributesOf(spansOf(withContent)[1]!)
    expect(JSON.parse((chat['gen_ai.input.messages'] as { stringValue: string }).stringValue)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'Hand billing questions to the billing agent.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'I was charged twice for order 42.' }] },
    ])
    expect(JSON.parse((chat['gen_ai.output.messages'] as { stringValue: string }).stringValue)).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'tool_call', id: 'call_hand0ff0TrAnSfEr1Bill', name: 'transfer_to_Billing_agent', arguments: { order_id: '42', reason: 'charged twice' } },
        ],
        finish_reason: 'tool_calls',
      },
    ])
    const lookup = attributesOf(spansOf(withContent)[5]!)
    expect([lookup['gen_ai.tool.call.arguments'], lookup['gen_ai.tool.call.result']]).toEqual([
      { stringValue: '{"order_id":"42"}' },
      { stringValue: '{"amount":19.99,"charges":2}' },
    ])
  })

  it('redacts what it exports as trace files are redacted: the API key in a message never leaves', async () => {
    const chain = await handLoggedChain()
    expect(JSON.stringify(chain.trace)).toContain('sk-proj-abcdefghijklmnopqrstuvwxyz123456')
    const exported = JSON.stringify(toOtlp(chain, { includeContent: true }))
    expect(exported).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz123456')
    expect(exported).toContain('The key is [REDACTED].')
    expect(JSON.stringify(toOtlp(chain, { includeContent: true, redact: false }))).toContain('sk-proj-abcdefghijklmnopqrstuvwxyz123456')
  })

  it('marks failed runs, failed LLM calls and failed tools with status ERROR and error.type', async () => {
    const spans = spansOf(toOtlp(await handLoggedChain()))
    const failures = spans.filter((span) => span.status?.code === 2).map((span) => [span.name, attributesOf(span)['error.type'], span.status!.message])
    expect(failures).toEqual([
      ['invoke_agent planner', { stringValue: 'RangeError' }, 'planner gave up'],
      ['execute_tool fetch', { stringValue: 'TypeError' }, 'TypeError: bad url'],
      ['chat', { stringValue: 'Error' }, 'overloaded'],
    ])
  })

  it("decodes with OpenTelemetry's own OTLP definitions, every field kept", async () => {
    for (const chain of [await agentsChain(), await handLoggedChain()]) {
      const request = toOtlp(chain, { includeContent: true })
      expect(hexIds(decodeWithOtlpDefinitions(request))).toEqual(withStringInts(request))
    }
  })

  it('derives span and trace ids from the traces: the same runs export to the same bytes, and ids are valid OTLP ids', async () => {
    const chain = await agentsChain()
    const first = JSON.stringify(toOtlp(chain, { includeContent: true }))
    expect(JSON.stringify(toOtlp(chain, { includeContent: true }))).toBe(first)
    const spans = spansOf(toOtlp(chain))
    for (const span of spans) {
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/)
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/)
    }
    expect(new Set(spans.map((span) => span.spanId)).size).toBe(spans.length)
    const other = spansOf(toOtlp(await agentsChain()))
    expect(other[0]!.traceId).not.toBe(spans[0]!.traceId)
  })
})
