import { HumanMessage, SystemMessage } from '@langchain/core/messages'
import { tool as langchainTool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { createOpenAI } from '@ai-sdk/openai'
import { Agent, OpenAIResponsesModel, tool as agentsTool } from '@openai/agents'
import { generateText, stepCountIs, streamText, tool as aiTool, wrapLanguageModel } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { instrumentLangChain } from '../../src/entries/langchain.js'
import { instrumentOpenAIAgents } from '../../src/entries/openai-agents.js'
import { fixtureJson, type CannedServer } from '../helpers/canned-server.js'
import { json, sse } from '../adapters/openai/helpers.js'
import { getWeather } from '../adapters/openai/weather-agent.js'
import { openaiClient as agentsClient, runAgent } from '../adapters/openai-agents/triage-agents.js'
import { issueRefund, lookupOrder } from '../fake/refund-kit.js'
import { expectSameOutcome, freshAnswers, recordTwice } from './steady.js'

instrumentLangChain()
instrumentOpenAIAgents()

function aiModel(server: CannedServer) {
  const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key' })
  return wrapLanguageModel({ model: openai.chat('gpt-4o'), middleware: reagentMiddleware() })
}

const aiTools = instrumentTools({
  get_weather: aiTool({
    description: 'Current weather of a city.',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => getWeather({ city }),
  }),
})

const REFUND_TOOLS = [
  langchainTool(async (args) => lookupOrder(args), {
    name: 'lookup_order',
    description: 'Look an order up by id.',
    schema: z.object({ order_id: z.string() }),
  }),
  langchainTool(async (args) => issueRefund(args), {
    name: 'issue_refund',
    description: 'Refund an order.',
    schema: z.object({ order_id: z.string(), amount: z.number() }),
  }),
]

function chatOpenAI(url: string): ChatOpenAI {
  return new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test-not-a-key', maxRetries: 0, configuration: { baseURL: `${url}/v1` } })
}

const agentsWeather = agentsTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => getWeather({ city }),
})

describe('re-recording unchanged behaviour through the frameworks changes no byte of the recording', () => {
  it('the AI SDK: generateText with a tool, and streamText (response id, timestamp and tool call id steady)', async () => {
    const loop = await recordTwice('ai-sdk', freshAnswers(json('chat/tool-call.json'), json('chat/final-answer.json')), async (server) => {
      const result = await generateText({ model: aiModel(server), tools: aiTools, stopWhen: stepCountIs(5), prompt: 'Weather in Paris?' })
      return { text: result.text, steps: result.steps.length }
    })
    expect(loop.second).toBe(loop.first)
    expectSameOutcome(loop)
    const streamed = await recordTwice('ai-sdk-stream', freshAnswers(sse('chat/tool-call.sse'), sse('chat/final-answer.sse')), async (server) => {
      const result = streamText({ model: aiModel(server), tools: aiTools, stopWhen: stepCountIs(5), prompt: 'Weather in Paris?' })
      return { text: await result.text, id: (await result.response).id }
    })
    expect(streamed.second).toBe(streamed.first)
    expectSameOutcome(streamed, { sameOutput: false })
    expect(streamed.replayed.output).toEqual({ text: 'It is 18°C and sunny in Paris and 24°C in Rome.', id: expect.stringMatching(/^chatcmpl-\d{6}-2$/) })
  })

  it('LangChain: a createReactAgent run over ChatOpenAI (message ids, tool call ids and response metadata steady)', async () => {
    const loop = await recordTwice(
      'langchain',
      freshAnswers(
        { json: fixtureJson('langchain/openai-chat-tool-call.json') },
        { json: fixtureJson('langchain/openai-chat-tool-call-refund.json') },
        { json: fixtureJson('langchain/openai-chat-final-answer.json') },
      ),
      async (server) => {
        const agent = createReactAgent({ llm: chatOpenAI(server.url), tools: REFUND_TOOLS })
        const state = await agent.invoke({ messages: [new SystemMessage('You handle refunds.'), new HumanMessage('Refund order 42, please.')] })
        return state.messages.at(-1)!.text
      },
    )
    expect(loop.second).toBe(loop.first)
    expectSameOutcome(loop)
  })

  it.each([false, true])('the OpenAI Agents SDK: a tool-using run (streamed: %s)', async (streamed) => {
    const answers = ['function-call', 'final-answer'].map((name) => (streamed ? sse(`responses/${name}.sse`) : json(`responses/${name}.json`)))
    const run = await recordTwice(`agents-${String(streamed)}`, freshAnswers(...answers), (server) =>
      runAgent(
        new Agent({
          name: 'Weather agent',
          instructions: 'You are a weather assistant.',
          model: new OpenAIResponsesModel(agentsClient(server), 'gpt-4.1'),
          tools: [agentsWeather],
        }),
        'What is the weather in Paris?',
        { stream: streamed },
      ),
    )
    expect(run.second).toBe(run.first)
    expectSameOutcome(run)
  })
})
