/**
 * What ReagentCallbackHandler adds to LangChain calls, with fake chat models
 * (LangChain's cost and ours, no network): the same calls with our handler and
 * with a no-op handler, alternating call by call. Any handler at all makes
 * LangChain build callback managers and serialise the model for each run;
 * that cost is shown on its own, against no handler, and it is what
 * instrumentLangChain() spares runs outside a session.
 */
import { BaseCallbackHandler } from '@langchain/core/callbacks/base'
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { FakeListChatModel, FakeStreamingChatModel } from '@langchain/core/utils/testing'
import { session } from 'reagent-flow'
import { instrumentLangChain, ReagentCallbackHandler } from 'reagent-flow/langchain'
import { z } from 'zod'
import type { BenchSuite } from '../run.js'
import { compareCalls } from '../lib/measure.js'
import type { Row } from '../lib/report.js'

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
type Handlers = BaseCallbackHandler[] | undefined

const configOf = (callbacks: Handlers) => (callbacks === undefined ? {} : { callbacks })
const chatCall =
  (callbacks: Handlers): Work =>
  () =>
    model.invoke(messages, configOf(callbacks))
const agentTurn =
  (callbacks: Handlers): Work =>
  async () => {
    const answer = await toolCallingModel.invoke(messages, configOf(callbacks))
    return lookupOrder.invoke(answer.tool_calls![0]!, configOf(callbacks))
  }

const inSession = { around: (round: () => Promise<void>) => session('bench-langchain', { save: false }, round).then(() => undefined) }

export const suite: BenchSuite = {
  name: 'langchain',
  async run() {
    const suiteName = 'LangChain: cost per call (fake chat models; median of single calls, alternating with the baseline)'
    const rows: Row[] = []
    const ours = [new ReagentCallbackHandler()]
    const noop = [new NoopHandler()]
    const add = (name: string, { oursUs, baselineUs }: { oursUs: number; baselineUs: number }, baselineName: string): void => {
      rows.push({ suite: suiteName, name, value: oursUs, unit: 'µs', baseline: baselineUs, baselineName })
      rows.push({ suite: suiteName, name: '  added per call', value: oursUs - baselineUs, unit: 'µs' })
    }

    add('chat model call, recorded in a session', await compareCalls(chatCall(ours), chatCall(noop), inSession), 'no-op handler')
    add('agent turn (tool call + tool run), recorded', await compareCalls(agentTurn(ours), agentTurn(noop), inSession), 'no-op handler')
    add('chat model call outside a session', await compareCalls(chatCall(ours), chatCall(noop)), 'no-op handler')
    add("LangChain's own cost of a (no-op) handler", await compareCalls(chatCall(noop), chatCall(undefined), inSession), 'no handler')
    // instrumentLangChain() hooks LangChain for the whole process, once: the same call before and after it, outside a session.
    const plain = chatCall(undefined)
    const before = await compareCalls(plain, plain)
    instrumentLangChain()
    const after = await compareCalls(plain, plain)
    add('instrumentLangChain(): call outside a session', { oursUs: after.oursUs, baselineUs: before.baselineUs }, 'not instrumented')
    return rows
  },
}
