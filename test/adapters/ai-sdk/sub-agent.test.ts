import { generateText, stepCountIs, streamText, tool, wrapLanguageModel, type LanguageModel } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from '../../../src/entries/ai-sdk.js'
import { loadChain, session, type Session } from '../../../src/entries/index.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { answer, generatingModel, streamingModel, text, toolCall } from './scripted.js'

const record = (model: LanguageModel): LanguageModel =>
  wrapLanguageModel({ model: model as Parameters<typeof wrapLanguageModel>[0]['model'], middleware: reagentMiddleware() })

/** The billing sub-agent: its own instrumented model and tools, in its own session. */
async function billingAgent(traceDir: string, orderId: string, opened: Session[]): Promise<string> {
  const billingTools = {
    issue_refund: tool({
      inputSchema: z.object({ order_id: z.string(), amount: z.number() }),
      execute: async ({ order_id, amount }) => ({ order_id, refunded: amount }),
    }),
  }
  const model = generatingModel(
    [answer([toolCall('b1', 'issue_refund', { order_id: orderId, amount: 19.99 })]), answer([text(`Refunded order ${orderId}.`)])],
    'billing-model',
  )
  const child = await session('billing-agent', { traceDir, handoffContext: { order_id: orderId, reason: 'damaged' } }, async () => {
    const { text: reply } = await generateText({
      model: record(model),
      tools: instrumentTools(billingTools),
      prompt: `Refund order ${orderId}`,
      stopWhen: stepCountIs(3),
    })
    return reply
  })
  opened.push(child)
  return child.output!
}

const supportScript = () => [answer([toolCall('s1', 'ask_billing', { order_id: '42' })]), answer([text('Your refund is on its way.')])]

function supportTools(traceDir: string, opened: Session[]) {
  return instrumentTools({
    ask_billing: tool({
      description: 'Hand the order over to the billing agent',
      inputSchema: z.object({ order_id: z.string() }),
      execute: ({ order_id }) => billingAgent(traceDir, order_id, opened),
    }),
  })
}

function expectHandoff(parent: Session, child: Session): void {
  expect(child.trace.parent_trace_id).toBe(parent.traceId)
  expect(child.trace.handoff_context).toEqual({ order_id: '42', reason: 'damaged' })
  // Each agent's own calls, in its own trace.
  expect(parent.trace.turns.flatMap((turn) => turn.llm_call.tool_calls.map((call) => call.name))).toEqual(['ask_billing'])
  expect(child.trace.turns.map((turn) => turn.llm_call.model)).toEqual(['billing-model', 'billing-model'])
  expect(child.trace.turns[0]!.llm_call.tool_calls).toMatchObject([{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 }, call_id: 'b1' }])
  expect(child.trace.turns[0]!.tool_results).toMatchObject([{ call_id: 'b1', result: { order_id: '42', refunded: 19.99 }, error: null }])
  // The sub-agent's answer is the parent's tool result, timed over the whole sub-agent run.
  expect(parent.trace.turns[0]!.tool_results).toEqual([{ call_id: 's1', result: 'Refunded order 42.', error: null, duration_ms: expect.any(Number) }])
}

describe('an AI SDK sub-agent used as a tool', () => {
  it('is recorded as a child session of the agent whose tool ran it, with the handoff', async () => {
    const traceDir = tempDir()
    const opened: Session[] = []
    const parent = await session('support-agent', { traceDir }, async () => {
      const { text: reply } = await generateText({
        model: record(generatingModel(supportScript(), 'support-model')),
        tools: supportTools(traceDir, opened),
        prompt: 'My order 42 arrived broken',
        stopWhen: stepCountIs(3),
      })
      return reply
    })

    expect(parent.output).toBe('Your refund is on its way.')
    expect(opened).toHaveLength(1)
    expectHandoff(parent, opened[0]!)

    const chain = loadChain('support-agent', { traceDir })
    expect(chain.children.map((node) => node.name)).toEqual(['billing-agent'])
    expect(chain.get('billing-agent').toolNames()).toContain('issue_refund')
  })

  it('is linked the same way with streamText, also when the parent streams were made before its session', async () => {
    const traceDir = tempDir()
    const opened: Session[] = []
    const model = streamingModel(supportScript(), { modelId: 'support-model', readyMade: true })
    const parent = await session(
      'support-agent',
      { traceDir },
      async () =>
        streamText({ model: record(model), tools: supportTools(traceDir, opened), prompt: 'My order 42 arrived broken', stopWhen: stepCountIs(3) }).text,
    )

    expect(parent.output).toBe('Your refund is on its way.')
    expectHandoff(parent, opened[0]!)
  })

  it('is checked with the ordinary assertions: the child called its tool, received the handoff, kept the context', async () => {
    const traceDir = tempDir()
    const opened: Session[] = []
    const parent = await session('support-agent', { traceDir }, async () => {
      const { text: reply } = await generateText({
        model: record(generatingModel(supportScript(), 'support-model')),
        tools: supportTools(traceDir, opened),
        prompt: 'My order 42 arrived broken',
        stopWhen: stepCountIs(3),
      })
      return reply
    })
    const child = opened[0]!

    parent.assertFlow(['ask_billing'])
    parent.assertToolSucceeded('ask_billing')
    parent.assertNeverCalled('issue_refund')
    child.assertHandoffReceived(parent)
    child.assertHandoffHasFields(['order_id', 'reason'])
    child.assertHandoffMatches({ schema: { type: 'object', required: ['order_id'], properties: { order_id: { type: 'string' } } } })
    child.assertContextPreserved({ order_id: '42' }, { fields: ['order_id'] })
    child.assertCalledWith('issue_refund', { order_id: '42', amount: expect.any(Number) })
    child.assertToolSucceeded('issue_refund')

    // The same across the chain loaded from disk, as a test that only has the files would do it.
    const chain = loadChain(parent.traceId, { traceDir })
    chain.get('billing-agent').assertCalled('issue_refund')
    expect(() => chain.get('billing-agent').assertCalled('cancel_order')).toThrowError('"cancel_order" was never called (2 turns, 1 tool calls)')
  })
})
