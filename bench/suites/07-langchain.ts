/**
 * What ReagentCallbackHandler adds to LangChain calls, with fake chat models
 * (so the figures are LangChain's and ours, no network): the same calls with
 * our handler and with a no-op handler, interleaved. Any handler at all makes
 * LangChain build its callback managers and serialise the model for each
 * run; that cost is shown on its own, against no handler.
 */
import { AsyncResource } from 'node:async_hooks'
import { BaseCallbackHandler } from '@langchain/core/callbacks/base'
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { FakeListChatModel, FakeStreamingChatModel } from '@langchain/core/utils/testing'
import { session } from 'reagent-flow'
import { instrumentLangChain, ReagentCallbackHandler } from 'reagent-flow/langchain'
import { z } from 'zod'
import type { BenchSuite } from '../run.js'
import { compareAsync } from '../lib/measure.js'
import type { Row } from '../lib/report.js'

const CALLS = 200

const model = new FakeListChatModel({ responses: ['Order 42 is refunded.'] })
const lookupOrder = tool(async ({ order_id }) => ({ order_id, amount: 19.99, status: 'delivered' }), {
  name: 'lookup_order',
  description: 'Look an order up by id.',
  schema: z.object({ order_id: z.string() }),
})
// A mid-conversation request: what an agent sends on its second turn.
const messages: BaseMessage[] = [
  new SystemMessage('You handle refunds.'),
  new HumanMessage('Refund order 42.'),
  new AIMessage({ content: '', tool_calls: [{ name: 'lookup_order', args: { order_id: '42' }, id: 'call_1', type: 'tool_call' }] }),
  new ToolMessage({ content: '{"order_id":"42","amount":19.99}', tool_call_id: 'call_1' }),
]
const toolCallingModel = new FakeStreamingChatModel({
  responses: [new AIMessage('')],
  chunks: [new AIMessageChunk({ content: '', tool_calls: [{ name: 'lookup_order', args: { order_id: '42' }, id: 'call_2', type: 'tool_call' }] })],
})

class NoopHandler extends BaseCallbackHandler {
  name = 'noop'
  override awaitHandlers = true
  override ignoreChain = true
  override handleChatModelStart(): void {}
  override handleLLMEnd(): void {}
  override handleToolStart(): void {}
  override handleToolEnd(): void {}
}

type Work = () => Promise<unknown>
type Step = (callbacks: BaseCallbackHandler[] | undefined) => Promise<unknown>

const configOf = (callbacks: BaseCallbackHandler[] | undefined) => (callbacks === undefined ? {} : { callbacks })
const chatCall: Step = (callbacks) => model.invoke(messages, configOf(callbacks))
const agentTurn: Step = async (callbacks) => {
  const answer = await toolCallingModel.invoke(messages, configOf(callbacks))
  return lookupOrder.invoke(answer.tool_calls![0]!, configOf(callbacks))
}

function repeat(step: Step, callbacks: BaseCallbackHandler[] | undefined, inSession: boolean): Work {
  const calls = async (): Promise<void> => {
    for (let i = 0; i < CALLS; i++) await step(callbacks)
  }
  return inSession ? () => session('bench-langchain', { save: false }, calls) : calls
}

/** µs per call of `ours` and `baseline`, measured interleaved. */
async function perCall(ours: Work, baseline: Work): Promise<{ ours: number; baseline: number }> {
  const timing = await compareAsync(ours, baseline, { runs: 21, warmup: 3 })
  return { ours: (timing.ours.medianMs * 1000) / CALLS, baseline: (timing.baseline.medianMs * 1000) / CALLS }
}

/** A function that runs its argument in an async context where instrumentLangChain() was called (and only there). */
function instrumentedContext(): Promise<(work: Work) => Promise<unknown>> {
  return new Promise((resolve) =>
    setImmediate(() => {
      instrumentLangChain()
      resolve(AsyncResource.bind((work: Work) => work()))
    }),
  )
}

export const suite: BenchSuite = {
  name: 'langchain',
  async run() {
    const suiteName = `LangChain: cost per call of ReagentCallbackHandler (fake chat models, ${CALLS} calls per sample)`
    const rows: Row[] = []
    const ours = [new ReagentCallbackHandler()]
    const noop = [new NoopHandler()]
    const added = (name: string, figures: { ours: number; baseline: number }, baselineName: string): void => {
      rows.push({ suite: suiteName, name, value: figures.ours, unit: 'µs', baseline: figures.baseline, baselineName })
      rows.push({ suite: suiteName, name: '  added per call', value: figures.ours - figures.baseline, unit: 'µs' })
    }

    added('chat model call, recorded in a session', await perCall(repeat(chatCall, ours, true), repeat(chatCall, noop, true)), 'no-op handler')
    added(
      'agent turn (model asks for a tool, tool runs), recorded',
      await perCall(repeat(agentTurn, ours, true), repeat(agentTurn, noop, true)),
      'no-op handler',
    )
    added('chat model call outside a session', await perCall(repeat(chatCall, ours, false), repeat(chatCall, noop, false)), 'no-op handler')
    added(
      "LangChain's own cost of any handler (no-op handler)",
      await perCall(repeat(chatCall, noop, true), repeat(chatCall, undefined, true)),
      'no handler',
    )
    const instrumented = await instrumentedContext()
    added(
      'instrumentLangChain(), chat model call outside a session',
      await perCall(() => instrumented(repeat(chatCall, undefined, false)), repeat(chatCall, undefined, false)),
      'not instrumented',
    )
    added(
      'instrumentLangChain(), chat model call recorded in a session',
      await perCall(() => instrumented(repeat(chatCall, undefined, true)), repeat(chatCall, undefined, true)),
      'not instrumented',
    )
    return rows
  },
}
