import { Agent, InputGuardrailTripwireTriggered, run } from '@openai/agents'
import { describe, expect, it } from 'vitest'
import '../../../src/entries/vitest.js'
import { instrumentOpenAIAgents } from '../../../src/entries/openai-agents.js'
import {
  assertHandoffHasFields,
  assertHandoffMatches,
  assertHandoffReceived,
  assertNoExtraFields,
  loadChain,
  session,
  type Trace,
} from '../../../src/entries/index.js'
import { normalizeTrace } from '../../../src/entries/golden.js'
import { fixtureJson, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { chatModel, HandoffInput, runAgent, triageAgents, triageReplies } from './triage-agents.js'

instrumentOpenAIAgents()

const QUESTION = 'I was charged twice for order 42.'
const ANSWER = 'Order 42 was charged twice; I refunded the second charge of $19.99.'

async function recordTriage(streamed: boolean): Promise<{ traceDir: string; output: unknown }> {
  const server = await startCannedServer(inOrder(...triageReplies(streamed)))
  const traceDir = tempDir('agents-')
  const { triage } = triageAgents(chatModel(server))
  const s = await session('support', { traceDir }, () => runAgent(triage, QUESTION, { stream: streamed }))
  return { traceDir, output: s.output }
}

describe('instrumentOpenAIAgents: a triage run that hands off to a billing agent', () => {
  it('records the triage agent in the session: its model call, the handoff call with the transfer as its result, the guardrail that ran', async () => {
    const { traceDir, output } = await recordTriage(false)
    expect(output).toBe(ANSWER)

    const chain = loadChain('support', { traceDir })
    expect(chain.children.map((child) => child.name)).toEqual(['Billing agent'])
    expect(normalizeTrace(chain.trace).turns).toEqual([
      {
        index: 0,
        llm_call: {
          messages: [
            { role: 'system', content: 'Hand billing questions to the billing agent.' },
            { role: 'user', content: QUESTION },
          ],
          response_text: null,
          tool_calls: [{ name: 'transfer_to_Billing_agent', arguments: { order_id: '42', reason: 'charged twice' }, call_id: 'call_1', timestamp: 0 }],
          model: 'gpt-4o-mini-2024-07-18',
          provider: 'openai',
          token_usage: { input_tokens: 121, output_tokens: 28, total_tokens: 149 },
          timestamp: 0,
          latency_ms: 0,
          stop_reason: 'tool_calls',
        },
        tool_results: [{ call_id: 'call_1', result: { assistant: 'Billing agent' }, error: null, duration_ms: 0 }],
        duration_ms: 0,
        guardrails: [{ name: 'no_card_numbers', triggered: false }],
      },
    ])
  })

  it('records the billing agent as a child session whose handoff_context is the handoff input, with its tool result and output guardrail', async () => {
    const { traceDir } = await recordTriage(false)
    const chain = loadChain('support', { traceDir })
    const billing = chain.get('Billing agent')

    expect(billing.trace.handoff_context).toEqual({ order_id: '42', reason: 'charged twice' })
    expect(billing.trace.metadata).toEqual({ handoff_from: 'Triage agent' })
    assertHandoffReceived(billing.trace, chain.trace)
    assertHandoffHasFields(billing.trace, ['order_id', 'reason'])
    assertHandoffMatches(billing.trace, { schema: HandoffInput })
    assertNoExtraFields(billing.trace, { allowed: ['order_id', 'reason'] })
    expect(billing).toHaveCalledToolWith('lookup_invoice', { order_id: '42' })
    billing.assertToolSucceeded('lookup_invoice')
    billing.assertFlow(['lookup_invoice'])

    const [lookup, answer] = billing.trace.turns
    expect(lookup!.tool_results).toEqual([
      { call_id: 'call_l00kup1nv01ce42xYz9Q', result: { amount: 19.99, charges: 2 }, error: null, duration_ms: expect.any(Number) },
    ])
    expect(answer!.llm_call.response_text).toBe(ANSWER)
    expect(answer!['guardrails']).toEqual([{ name: 'polite_answer', triggered: false }])
    expect(billing.trace.status).toBe('completed')
  })

  it('records a streamed run (run(..., { stream: true })) as the same traces, in golden normal form', async () => {
    const plain = loadChain('support', { traceDir: (await recordTriage(false)).traceDir })
    const { traceDir, output } = await recordTriage(true)
    const streamed = loadChain('support', { traceDir })

    expect(output).toBe(ANSWER)
    expect(streamed.flatten().map((node) => node.name)).toEqual(['support', 'Billing agent'])
    // Both runs are sessions of this one test: only their keys (" #2") tell them apart.
    const behaviour = (trace: Trace): Trace => {
      const { test_key: _key, ...rest } = normalizeTrace(trace)
      return rest as Trace
    }
    expect(behaviour(streamed.trace)).toEqual(behaviour(plain.trace))
    expect(behaviour(streamed.get('Billing agent').trace)).toEqual(behaviour(plain.get('Billing agent').trace))
  })

  it('records a tool that throws as the error of its call, and the run goes on', async () => {
    const lookupMissing = structuredClone(
      fixtureJson<{ choices: [{ message: { tool_calls: [{ function: { arguments: string } }] } }] }>('openai-agents/billing-lookup.json'),
    )
    lookupMissing.choices[0].message.tool_calls[0].function.arguments = '{"order_id":"7"}'
    const [handoffReply, , answerReply] = triageReplies()
    const server = await startCannedServer(inOrder(handoffReply!, { json: lookupMissing }, answerReply!))
    const traceDir = tempDir('agents-')
    const { triage } = triageAgents(chatModel(server))

    await session('support', { traceDir }, () => run(triage, QUESTION))

    const billing = loadChain('support', { traceDir }).get('Billing agent')
    expect(billing.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'call_l00kup1nv01ce42xYz9Q', result: null, error: 'Error: no invoice for order 7', duration_ms: expect.any(Number) },
    ])
    expect(() => billing.assertToolSucceeded('lookup_invoice')).toThrow(/lookup_invoice/)
  })

  it('keeps a tripped input guardrail (run before the model) on the trace of the session that failed with the SDK error, with no model call', async () => {
    const server = await startCannedServer(inOrder(...triageReplies()))
    const traceDir = tempDir('agents-')
    const { triage } = triageAgents(chatModel(server))

    const failed = session('support', { traceDir }, () => run(triage, 'My card is 4111111111111111, refund order 42.'))
    await expect(failed).rejects.toBeInstanceOf(InputGuardrailTripwireTriggered)

    const chain = loadChain('support', { traceDir })
    expect(chain.trace.status).toBe('failed')
    expect(chain.trace.error).toMatchObject({ name: 'InputGuardrailTripwireTriggered' })
    expect(chain.trace.turns).toEqual([])
    expect(chain.trace['guardrails']).toEqual([{ name: 'no_card_numbers', triggered: true }])
    expect(server.requests).toEqual([])
    expect(chain.children).toEqual([])
  })
})

describe("instrumentOpenAIAgents: an agent run as another agent's tool", () => {
  it('records the inner agent as a child session named after it, without a handoff context, its calls its own', async () => {
    type Completion = { choices: [{ message: { tool_calls?: Array<{ function: { name: string; arguments: string } }>; content: string | null } }] }
    const callExpert = structuredClone(fixtureJson<Completion>('openai-agents/triage-handoff.json'))
    callExpert.choices[0].message.tool_calls![0]!.function = { name: 'billing_expert', arguments: '{"input":"Order 42 was charged twice."}' }
    const finalAnswer = structuredClone(fixtureJson<Completion>('openai-agents/billing-answer.json'))
    finalAnswer.choices[0].message.content = 'The billing expert refunded it.'
    const [, lookup, expertAnswer] = triageReplies()
    const server = await startCannedServer(inOrder({ json: callExpert }, lookup!, expertAnswer!, { json: finalAnswer }))
    const traceDir = tempDir('agents-')
    const { billing } = triageAgents(chatModel(server))
    const front = new Agent({
      name: 'Front desk',
      model: chatModel(server),
      tools: [billing.asTool({ toolName: 'billing_expert', toolDescription: 'Fixes billing problems.' })],
    })

    const s = await session('desk', { traceDir }, () => runAgent(front, QUESTION))

    expect(s.output).toBe('The billing expert refunded it.')
    const chain = loadChain('desk', { traceDir })
    expect(chain.flatten().map((node) => [node.name, node.depth])).toEqual([
      ['desk', 0],
      ['Billing agent', 1],
    ])
    const expert = chain.get('Billing agent')
    expect([expert.trace.handoff_context, expert.trace.metadata]).toEqual([null, { invoked_as_tool: 'billing_expert' }])
    expect(expert.toolNames()).toEqual(['lookup_invoice'])
    expect(chain.toolNames()).toEqual(['billing_expert'])
    expect(chain.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'call_hand0ff0TrAnSfEr1Bill', result: ANSWER, error: null, duration_ms: expect.any(Number) },
    ])
  })
})
