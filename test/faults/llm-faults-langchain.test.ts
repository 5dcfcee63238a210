import { HumanMessage } from '@langchain/core/messages'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { describe, expect, it } from 'vitest'
import { instrumentLangChain } from '../../src/entries/langchain.js'
import { ModelFaultError } from '../../src/errors/index.js'
import { scriptedChatModel } from '../../src/entries/fake-langchain.js'
import { session, type Session } from '../../src/entries/index.js'
import { fixtureJson, inOrder, startCannedServer } from '../helpers/canned-server.js'
import { issueRefund, lookupOrder } from '../adapters/langchain/agent-kit.js'

instrumentLangChain()

function chatOpenAI(url: string, maxRetries: number): ChatOpenAI {
  return new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test-not-a-key', maxRetries, configuration: { baseURL: `${url}/v1` } })
}

function failures(s: Session): Array<[string | null, boolean]> {
  return s.trace.turns.map((turn) => [turn.llm_call.error?.name ?? null, turn.llm_call.injected === true])
}

const ask = (text: string) => ({ messages: [new HumanMessage(text)] })

describe('LLM faults with LangChain chat models (instrumentLangChain)', () => {
  it("fails a createReactAgent's ChatOpenAI call with a 429 once: the model's AsyncCaller retries it, the run completes", async () => {
    const server = await startCannedServer(
      inOrder(
        { json: fixtureJson('langchain/openai-chat-tool-call.json') },
        { json: fixtureJson('langchain/openai-chat-tool-call-refund.json') },
        { json: fixtureJson('langchain/openai-chat-final-answer.json') },
      ),
    )
    const agent = createReactAgent({ llm: chatOpenAI(server.url, 2), tools: [lookupOrder, issueRefund] })

    const s = await session('react-429', { save: false, faults: [{ llm: true, status: 429, after: 1, times: 1 }] }, async () => {
      const state = await agent.invoke(ask('Refund order 42, please.'))
      return state.messages.at(-1)!.text
    })

    expect(s.output).toBe('Order 42 is refunded: $19.99 is on its way back to your card.')
    expect(server.requests).toHaveLength(3)
    expect(failures(s)).toEqual([
      [null, false],
      ['ModelFaultError', true],
      [null, false],
      [null, false],
    ])
    const attempt = s.trace.turns[1]!.llm_call
    expect([attempt.model, attempt.provider, attempt.error!.message]).toEqual([
      'gpt-4o-mini',
      'openai',
      "429 Rate limit reached for gpt-4o-mini: an injected fault (the session's faults option).",
    ])
    expect(attempt.messages).toEqual(s.trace.turns[2]!.llm_call.messages)
    expect(s.trace.turns.map((turn) => turn.llm_call.tool_calls.map((call) => call.name))).toEqual([['lookup_order'], [], ['issue_refund'], []])
  })

  it('fails every attempt with a 500: after maxRetries the agent sees a ModelFaultError with the status and the provider error', async () => {
    const model = scriptedChatModel([{ text: 'never sent' }], { maxRetries: 1 })
    const agent = createReactAgent({ llm: model, tools: [lookupOrder] })

    const s = await session('react-500', { save: false, faults: [{ llm: true, status: 500 }] }, () =>
      agent.invoke(ask('Refund order 42.')).catch((error: unknown) => error),
    )

    expect(s.output).toBeInstanceOf(ModelFaultError)
    expect(s.output).toMatchObject({
      status: 500,
      fault: 500,
      model: 'scripted-chat-model',
      message: "500 The server had an error while processing your request for scripted-chat-model: an injected fault (the session's faults option).",
      error: { type: 'server_error', code: null },
      headers: { 'retry-after-ms': '1', 'retry-after': '0' },
      injected: true,
    })
    expect(model.remaining).toBe(1)
    expect(failures(s)).toEqual([
      ['ModelFaultError', true],
      ['ModelFaultError', true],
    ])
  })

  it('times out at once, streamed too, with a ModelFaultError of no status', async () => {
    const model = scriptedChatModel([{ text: 'Sunny.' }], { maxRetries: 0 })
    const started = performance.now()

    const s = await session('stream-timeout', { save: false, faults: [{ llm: true, status: 'timeout', times: 1 }] }, async () => {
      const failed = await (async () => {
        for await (const _chunk of await model.stream('Weather?')) return 'streamed'
        return 'empty'
      })().catch((error: Error) => `${error.name}: ${error.message}`)
      const answer = await model.invoke('Weather?')
      return [failed, answer.text]
    })

    expect(performance.now() - started).toBeLessThan(1000)
    expect(s.output).toEqual(["ModelFaultError: Request timed out for scripted-chat-model: an injected fault (the session's faults option).", 'Sunny.'])
    expect(failures(s)).toEqual([
      ['ModelFaultError', true],
      [null, false],
    ])
  })
})
