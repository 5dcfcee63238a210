import { Agent, OpenAIResponsesModel, tool } from '@openai/agents'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentOpenAIAgents } from '../../src/entries/openai-agents.js'
import { fixtureJson, fixtureText, inOrder } from '../helpers/canned-server.js'
import { getWeather } from '../adapters/openai/weather-agent.js'
import { chatModel, openaiClient, runAgent, triageAgents, triageReplies } from '../adapters/openai-agents/triage-agents.js'
import { behaviour, recordThenReplay } from './record-replay.js'

instrumentOpenAIAgents()

const weather = tool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => getWeather({ city }),
})

const responses = (streamed: boolean) =>
  ['function-call', 'final-answer'].map((name) =>
    streamed ? { sse: fixtureText(`openai/responses/${name}.sse`) } : { json: fixtureJson(`openai/responses/${name}.json`) },
  )

describe('record and replay with the OpenAI Agents SDK (instrumentOpenAIAgents), offline', () => {
  it.each([false, true])('replays a tool-using run (streamed: %s): the runner runs the tool the recorded response asks for', async (streamed) => {
    const { replayed, recording } = await recordThenReplay(`agents-weather-${String(streamed)}`, inOrder(...responses(streamed)), (server) =>
      runAgent(
        new Agent({
          name: 'Weather agent',
          instructions: 'You are a weather assistant.',
          model: new OpenAIResponsesModel(openaiClient(server), 'gpt-4.1'),
          tools: [weather],
        }),
        'What is the weather in Paris?',
        {
          stream: streamed,
        },
      ),
    )
    expect(replayed.output).toBe('It is 18°C and sunny in Paris.')
    expect(replayed.trace.turns[0]!.tool_results.map((result) => result.result)).toEqual([getWeather({ city: 'Paris' })])
    expect(recording()).toContain(`"endpoint": "openai-agents openai ${streamed ? 'getStreamedResponse' : 'getResponse'}"`)
  })

  it.each([false, true])('replays a handoff (streamed: %s): the receiving agent replays into its own child session and recording', async (streamed) => {
    const { recorded, replayed } = await recordThenReplay(`agents-triage-${String(streamed)}`, inOrder(...triageReplies(streamed)), (server) =>
      runAgent(triageAgents(chatModel(server)).triage, 'I was charged twice for order 42.', { stream: streamed }),
    )
    const [billing] = replayed.children
    expect(billing!.name).toBe('Billing agent')
    expect(billing!.trace.turns.map((turn) => turn.llm_call.replayed)).toEqual([true, true])
    expect(behaviour(billing!.trace)).toEqual(behaviour(recorded.children[0]!.trace))
    expect(billing!.trace.handoff_context).toEqual(recorded.children[0]!.trace.handoff_context)
  })
})
