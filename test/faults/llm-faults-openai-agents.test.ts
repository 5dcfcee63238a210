import { Agent, OpenAIResponsesModel, tool } from '@openai/agents'
import OpenAI, { InternalServerError } from 'openai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentOpenAIAgents } from '../../src/entries/openai-agents.js'
import { session, type Session } from '../../src/entries/index.js'
import { fixtureJson, fixtureText, inOrder, startCannedServer, type CannedServer } from '../helpers/canned-server.js'
import { runAgent } from '../adapters/openai-agents/triage-agents.js'

instrumentOpenAIAgents()

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, temperature_c: 18, conditions: 'sunny' }),
})

function weatherAgent(server: CannedServer, maxRetries: number): Agent {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries })
  return new Agent({
    name: 'Weather agent',
    instructions: 'You are a weather assistant.',
    model: new OpenAIResponsesModel(client, 'gpt-4.1'),
    tools: [getWeather],
  })
}

const responses = (streamed: boolean) =>
  ['function-call', 'final-answer'].map((name) =>
    streamed ? { sse: fixtureText(`openai/responses/${name}.sse`) } : { json: fixtureJson(`openai/responses/${name}.json`) },
  )

function failures(s: Session): Array<[string | null, boolean]> {
  return s.trace.turns.map((turn) => [turn.llm_call.error?.name ?? null, turn.llm_call.injected === true])
}

/** How long the SDK waited between turn `at`'s failed attempt and the next attempt, as the trace timed them. */
function retryWaitMs(s: Session, at: number): number {
  const failed = s.trace.turns[at]!.llm_call
  return (s.trace.turns[at + 1]!.llm_call.timestamp - failed.timestamp) * 1000 - failed.latency_ms!
}

describe("LLM faults with the OpenAI Agents SDK: its model's OpenAI client answers them", () => {
  it.each([false, true])('retries a 429 through the client (streamed: %s): the run completes, the trace shows both attempts', async (stream) => {
    const server = await startCannedServer(inOrder(...responses(stream)))

    const s = await session('agents-429', { save: false, faults: [{ llm: true, status: 429, times: 1 }] }, () =>
      runAgent(weatherAgent(server, 2), 'Weather in Paris?', { stream }),
    )

    // The client's own backoff without a retry-after is 375 ms at least: this retry was told to wait a millisecond.
    expect(retryWaitMs(s, 0)).toBeLessThan(300)
    expect(typeof s.output).toBe('string')
    expect(server.requests).toHaveLength(2)
    expect(failures(s)).toEqual([
      ['RateLimitError', true],
      [null, false],
      [null, false],
    ])
    expect(s.trace.turns[0]!.llm_call.model).toBe('gpt-4.1')
  })

  it("fails every attempt with a 500: the run rejects with the client's InternalServerError after its retries", async () => {
    const server = await startCannedServer(inOrder(...responses(false)))

    const s = await session('agents-500', { save: false, faults: [{ llm: true, status: 500 }] }, () =>
      runAgent(weatherAgent(server, 1), 'Weather in Paris?').catch((error: unknown) => error),
    )

    expect(s.output).toBeInstanceOf(InternalServerError)
    expect(server.requests).toHaveLength(0)
    expect(failures(s)).toEqual([
      ['InternalServerError', true],
      ['InternalServerError', true],
    ])
  })
})
