import { HumanMessage, SystemMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentLangChain } from '../../src/entries/langchain.js'
import { scriptedChatModel } from '../../src/entries/fake-langchain.js'
import { session } from '../../src/entries/index.js'
import { fixtureJson, fixtureText, inOrder } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { captureWarnings } from '../helpers/warnings.js'
import { renderTrace } from '../../src/golden/trace-file.js'
import { FINAL_ANSWER, issueRefund, lookupOrder, QUESTION, refundScript } from '../fake/refund-kit.js'
import { behaviour, recordThenReplay } from './record-replay.js'

instrumentLangChain()

const TOOLS = [
  tool(async (args) => lookupOrder(args), { name: 'lookup_order', description: 'Look an order up by id.', schema: z.object({ order_id: z.string() }) }),
  tool(async (args) => issueRefund(args), {
    name: 'issue_refund',
    description: 'Refund an order.',
    schema: z.object({ order_id: z.string(), amount: z.number() }),
  }),
]

/** An OpenAI answer whose usage has only the three counts, as many OpenAI-compatible servers send it. */
function withoutTokenDetails(payload: { usage: Record<string, unknown> }): unknown {
  const { prompt_tokens_details: _prompt, completion_tokens_details: _completion, ...usage } = payload.usage
  return { ...payload, usage }
}

function chatOpenAI(url: string): ChatOpenAI {
  return new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test-not-a-key', maxRetries: 0, configuration: { baseURL: `${url}/v1` } })
}

describe('record and replay with LangChain chat models (instrumentLangChain), offline', () => {
  it('replays ChatOpenAI in a createReactAgent run: the hook at the model answers, no request reaches the server', async () => {
    const { replayed, recording } = await recordThenReplay(
      'react-agent',
      inOrder(
        { json: fixtureJson('langchain/openai-chat-tool-call.json') },
        { json: fixtureJson('langchain/openai-chat-tool-call-refund.json') },
        { json: fixtureJson('langchain/openai-chat-final-answer.json') },
      ),
      async (server) => {
        const agent = createReactAgent({ llm: chatOpenAI(server.url), tools: TOOLS })
        const state = await agent.invoke({ messages: [new SystemMessage('You handle refunds.'), new HumanMessage('Refund order 42, please.')] })
        return state.messages.at(-1)!.text
      },
    )
    expect(replayed.output).toBe('Order 42 is refunded: $19.99 is on its way back to your card.')
    expect(replayed.trace.turns.map((turn) => turn.tool_results.length)).toEqual([1, 1, 0])
    expect(recording()).toContain('"endpoint": "langchain ChatOpenAI _generate"')
  })

  it('writes the same golden bytes live and replayed, and no warning, for answers whose usage names no token details', async () => {
    const warnings = captureWarnings()
    const answers = ['openai-chat-tool-call.json', 'openai-chat-tool-call-refund.json', 'openai-chat-final-answer.json']
    const { recorded, replayed } = await recordThenReplay(
      'react-agent-no-details',
      inOrder(...answers.map((file) => ({ json: withoutTokenDetails(fixtureJson(`langchain/${file}`)) }))),
      async (server) => {
        const agent = createReactAgent({ llm: chatOpenAI(server.url), tools: TOOLS })
        const state = await agent.invoke({ messages: [new SystemMessage('You handle refunds.'), new HumanMessage('Refund order 42, please.')] })
        return state.messages.at(-1)!.text
      },
    )
    expect(renderTrace(replayed.trace, { golden: true })).toBe(renderTrace(recorded.trace, { golden: true }))
    expect(replayed.trace.turns.map((turn) => turn.llm_call.token_usage)).toEqual([
      { input_tokens: 112, output_tokens: 17, total_tokens: 129 },
      { input_tokens: 171, output_tokens: 24, total_tokens: 195 },
      { input_tokens: 222, output_tokens: 19, total_tokens: 241 },
    ])
    expect(await warnings.seen()).toEqual([])
  })

  it('writes the same golden bytes live and replayed for a stream whose usage names no token details', async () => {
    const warnings = captureWarnings()
    const sse = fixtureText('langchain/openai-chat-stream-answer.sse').replace(/,"prompt_tokens_details":\{[^}]*\},"completion_tokens_details":\{[^}]*\}/, '')
    const { recorded, replayed } = await recordThenReplay('stream-no-details', inOrder({ sse }), async (server) => {
      let text = ''
      for await (const chunk of await chatOpenAI(server.url).stream('When does order 42 ship?')) text += chunk.text
      return text
    })
    expect(renderTrace(replayed.trace, { golden: true })).toBe(renderTrace(recorded.trace, { golden: true }))
    expect(replayed.trace.turns[0]!.llm_call.token_usage).toEqual({ input_tokens: 38, output_tokens: 6, total_tokens: 44 })
    expect(await warnings.seen()).toEqual([])
  })

  it('replays ChatOpenAI.stream() chunk for chunk, with the usage of the recorded stream', async () => {
    const { replayed } = await recordThenReplay(
      'chat-openai-stream',
      inOrder({ sse: fixtureText('langchain/openai-chat-stream-answer.sse') }),
      async (server) => {
        const texts: string[] = []
        for await (const chunk of await chatOpenAI(server.url).stream('When does order 42 ship?')) texts.push(chunk.text)
        return texts
      },
    )
    expect((replayed.output as string[]).join('')).toBe('Order 42 ships tomorrow.')
    expect(replayed.trace.turns[0]!.llm_call.token_usage).toMatchObject({ input_tokens: 38, output_tokens: 6 })
  })

  it.each([false, true])('replays any BaseChatModel (a scripted one here), invoked and streamed (stream: %s): the model is never called', async (stream) => {
    const dir = tempDir()
    const agent = async (model: ReturnType<typeof scriptedChatModel>): Promise<string> => {
      const react = createReactAgent({ llm: model, tools: TOOLS })
      const input = { messages: [new HumanMessage(QUESTION)] }
      if (!stream) return (await react.invoke(input)).messages.at(-1)!.text
      let last = ''
      for await (const [chunk, metadata] of await react.stream(input, { streamMode: 'messages' })) {
        if (metadata.langgraph_node === 'agent') last = `${last}${chunk.text}`
      }
      return last.slice(last.indexOf('Done:'))
    }
    const recorded = await session('scripted-agent', { traceDir: dir, replay: 'record' }, () => agent(scriptedChatModel(refundScript())))
    // An empty script: any call that reached the model would fail with "the script has no more steps".
    const unanswerable = scriptedChatModel([])
    const replayed = await session('scripted-agent', { traceDir: dir, replay: 'replay' }, () => agent(unanswerable))

    expect(replayed.output).toBe(FINAL_ANSWER)
    expect(unanswerable.requests).toEqual([])
    expect(behaviour(replayed.trace)).toEqual(behaviour(recorded.trace))
    expect(replayed.trace.turns.map((turn) => turn.llm_call.replayed)).toEqual([true, true, true])
  })
})
