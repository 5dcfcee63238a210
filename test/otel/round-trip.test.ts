import { describe, expect, it } from 'vitest'
import { session, type ChainNode } from '../../src/entries/index.js'
import { normalizeTrace } from '../../src/entries/golden.js'
import { fromOtlp, toOtlp } from '../../src/entries/otel.js'
import { captureWarnings } from '../helpers/warnings.js'
import { agentsChain, handLoggedChain } from './chains.js'

async function roundTrip(chain: ChainNode): Promise<void> {
  const request = JSON.parse(JSON.stringify(toOtlp(chain, { includeContent: true, redact: false }))) as unknown
  const { traces, dialect } = await fromOtlp(request)
  expect(dialect).toBe('genai')
  expect(traces.map((trace) => trace.name)).toEqual(chain.flatten().map((node) => node.name))
  traces.forEach((trace, i) => {
    const original = chain.flatten()[i]!.trace
    expect(normalizeTrace(trace)).toEqual(normalizeTrace(original))
    expect([trace.trace_id, trace.parent_trace_id, trace.started_at, trace.ended_at]).toEqual([
      original.trace_id,
      original.parent_trace_id,
      original.started_at,
      original.ended_at,
    ])
  })
}

describe('OTLP round trip: a trace exported (with content) and imported again is the same trace', () => {
  it('for an Agents SDK run: the handoff child, its handoff_context, guardrails, usage, provider', async () => {
    await roundTrip(await agentsChain())
  })

  it('for a failed run with a failed LLM call, non-text content, raw arguments, a result without a call, metadata and ids', async () => {
    const warnings = captureWarnings()
    await roundTrip(await handLoggedChain())
    // The result without a call is kept as it was, and said so again when it is read back.
    expect((await warnings.seen()).map((warning) => warning.code)).toEqual(['REAGENT_ORPHAN_RESULT', 'REAGENT_ORPHAN_RESULT'])
  })

  it('without content, keeps the shape: calls with their ids and names, results, errors, usage; no messages, text, arguments or results', async () => {
    const chain = await agentsChain()
    const { traces } = await fromOtlp(toOtlp(chain))
    const billing = traces[1]!
    expect(billing.handoff_context).toBeNull()
    expect(
      billing.turns.map((turn) => [
        turn.llm_call.messages,
        turn.llm_call.response_text,
        turn.llm_call.tool_calls.map((call) => [call.name, call.arguments, call.call_id]),
      ]),
    ).toEqual([
      [null, null, [['lookup_invoice', {}, 'call_l00kup1nv01ce42xYz9Q']]],
      [null, null, []],
    ])
    expect(billing.turns[0]!.tool_results).toEqual([{ call_id: 'call_l00kup1nv01ce42xYz9Q', result: null, error: null, duration_ms: expect.any(Number) }])
    expect(billing.turns.map((turn) => turn.llm_call.token_usage)).toEqual(chain.get('Billing agent').trace.turns.map((turn) => turn.llm_call.token_usage))
  })

  it("with the default redaction, each chat span carries its call's whole history, not the file form's new messages and messages_base", async () => {
    const question = { role: 'user', content: 'Weather in Paris?' }
    const asked = { role: 'assistant', content: null }
    const answered = { role: 'tool', content: '{"temperature_c":18}' }
    const s = await session('conversation', { save: false }, (s) => {
      const [callId] = s.logLlmCall({ messages: [question], toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], model: 'gpt-4o' })
      s.logToolResult('get_weather', { result: { temperature_c: 18 }, callId: callId! })
      s.logLlmCall({ messages: [question, asked, answered], responseText: 'Sunny.', model: 'gpt-4o' })
    })

    const request = toOtlp({ trace: s.trace, children: [] }, { includeContent: true })
    const inputs = request.resourceSpans[0]!.scopeSpans![0]!.spans!.flatMap((span) =>
      span.attributes!.filter((a) => a.key === 'gen_ai.input.messages').map((a) => JSON.parse(a.value?.stringValue ?? 'null') as { role: string }[]),
    )
    expect(inputs.map((messages) => messages.map((message) => message.role))).toEqual([['user'], ['user', 'assistant', 'tool']])
    const { traces } = await fromOtlp(JSON.parse(JSON.stringify(request)))
    expect(traces[0]!.turns[1]!.llm_call.messages).toEqual([question, asked, answered])
    expect(traces[0]!.turns[1]!.llm_call).not.toHaveProperty('messages_base')
    expect(normalizeTrace(traces[0]!)).toEqual(normalizeTrace(s.trace))
  })
})
