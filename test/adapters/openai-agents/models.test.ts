import { Agent, OpenAIResponsesModel, run, Runner, tool, Usage, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents'
import { describe, expect, it } from 'vitest'
import { InternalServerError } from 'openai'
import { z } from 'zod'
import { instrumentAgentsModel, instrumentOpenAIAgents } from '../../../src/entries/openai-agents.js'
import { loadChain, session } from '../../../src/entries/index.js'
import { normalizeTrace } from '../../../src/entries/golden.js'
import { fixtureJson, fixtureText, inOrder, startCannedServer, type CannedServer } from '../../helpers/canned-server.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { captureWarnings } from '../../helpers/warnings.js'
import { chatModel, openaiClient, runAgent, triageAgents, triageReplies } from './triage-agents.js'

instrumentOpenAIAgents()

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, temperature_c: 18, conditions: 'sunny' }),
})

function weatherAgent(server: CannedServer): Agent {
  return new Agent({
    name: 'Weather agent',
    instructions: 'You are a weather assistant.',
    model: new OpenAIResponsesModel(openaiClient(server), 'gpt-4.1'),
    tools: [getWeather],
  })
}

const responses = (streamed: boolean) =>
  ['function-call', 'final-answer'].map((name) =>
    streamed ? { sse: fixtureText(`openai/responses/${name}.sse`) } : { json: fixtureJson(`openai/responses/${name}.json`) },
  )

/** A model of the user's own, answering from a script: what `instrumentAgentsModel` is for. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = []
  readonly #script: ModelResponse['output'][]

  constructor(...script: ModelResponse['output'][]) {
    this.#script = script
  }

  getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request)
    const output = this.#script.shift()
    if (output === undefined) return Promise.reject(new Error('the script has no more responses'))
    return Promise.resolve({ output, usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }) })
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const response = await this.getResponse(request)
    yield { type: 'response_started' }
    const done = { id: 'scripted', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, output: response.output }
    yield { type: 'response_done', response: done } as StreamEvent
  }
}

describe('instrumentOpenAIAgents: models', () => {
  it.each([
    { streamed: false, outputTokens: 17, finalInputTokens: 112 },
    { streamed: true, outputTokens: 22, finalInputTokens: 120 },
  ])(
    'records an OpenAIResponsesModel tool loop (streamed: $streamed) with the Responses model, usage and the tool result',
    async ({ streamed, outputTokens, finalInputTokens }) => {
      const server = await startCannedServer(inOrder(...responses(streamed)))
      const s = await session('weather', { save: false }, async () => {
        return runAgent(weatherAgent(server), 'What is the weather in Paris?', { stream: streamed })
      })

      expect(s.output).toBe('It is 18°C and sunny in Paris.')
      const [call, answer] = normalizeTrace(s.trace).turns
      expect(call!.llm_call).toMatchObject({
        model: 'gpt-4.1-2025-04-14',
        provider: 'openai',
        tool_calls: [{ name: 'get_weather', arguments: { city: 'Paris' }, call_id: 'call_1', timestamp: 0 }],
        token_usage: { input_tokens: 74, output_tokens: outputTokens },
        stop_reason: 'completed',
      })
      expect(call!.tool_results).toEqual([
        { call_id: 'call_1', result: { city: 'Paris', temperature_c: 18, conditions: 'sunny' }, error: null, duration_ms: 0 },
      ])
      expect(answer!.llm_call).toMatchObject({
        response_text: 'It is 18°C and sunny in Paris.',
        tool_calls: [],
        token_usage: { input_tokens: finalInputTokens, output_tokens: 11 },
      })
      expect(answer!.llm_call.messages).toEqual([
        { role: 'system', content: 'You are a weather assistant.' },
        { role: 'user', content: 'What is the weather in Paris?' },
        { role: 'assistant', content: null },
        { role: 'tool', content: '{"city":"Paris","temperature_c":18,"conditions":"sunny"}' },
      ])
    },
  )

  it('records nothing the SDK withholds with traceIncludeSensitiveData: false (no messages, text, arguments, tool outputs, handoff input)', async () => {
    const server = await startCannedServer(inOrder(...triageReplies()))
    const traceDir = tempDir('agents-')
    const { triage } = triageAgents(chatModel(server))
    const runner = new Runner({ traceIncludeSensitiveData: false })

    const s = await session('support', { traceDir }, () => runAgent(triage, 'I was charged twice for order 42.', { runner }))

    expect(s.output).toBe('Order 42 was charged twice; I refunded the second charge of $19.99.')
    const chain = loadChain('support', { traceDir })
    const billing = chain.get('Billing agent')
    const text = JSON.stringify([chain.trace, billing.trace])
    for (const secret of ['charged twice', 'order 42', '19.99', '"42"']) expect(text).not.toContain(secret)
    expect(billing.trace.handoff_context).toEqual({})
    expect(billing.trace.turns.map((turn) => turn.llm_call.tool_calls.map((call) => [call.name, call.arguments]))).toEqual([[['lookup_invoice', {}]], []])
    expect(billing.trace.turns[0]!.tool_results).toEqual([{ call_id: 'call_l00kup1nv01ce42xYz9Q', result: null, error: null, duration_ms: expect.any(Number) }])
    expect(billing.trace.turns.map((turn) => [turn.llm_call.messages, turn.llm_call.response_text, turn.llm_call.token_usage])).toEqual([
      [null, null, { input_tokens: 188, output_tokens: 17, total_tokens: 205 }],
      [null, null, { input_tokens: 236, output_tokens: 19, total_tokens: 255 }],
    ])
  })

  it('records a Model of your own once passed to instrumentAgentsModel, plain and streamed, with its provider', async () => {
    const script = (): ModelResponse['output'][] => [
      [{ type: 'function_call', callId: 'call_scripted_1', name: 'get_weather', arguments: '{"city":"Rome"}', status: 'completed' }],
      [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Sunny in Rome.' }] }],
    ]
    for (const stream of [false, true]) {
      const model = instrumentAgentsModel(new ScriptedModel(...script()), { provider: 'scripted' })
      expect(instrumentAgentsModel(model)).toBe(model)
      const agent = new Agent({ name: 'Weather agent', model, tools: [getWeather] })
      const s = await session('scripted', { save: false }, () => runAgent(agent, 'Rome?', { stream }))
      expect(s.output).toBe('Sunny in Rome.')
      expect(s.trace.turns.map((turn) => [turn.llm_call.provider, turn.llm_call.tool_calls.map((call) => call.name), turn.llm_call.response_text])).toEqual([
        ['scripted', ['get_weather'], null],
        ['scripted', [], 'Sunny in Rome.'],
      ])
      expect(s.trace.turns[0]!.tool_results[0]!.result).toEqual({ city: 'Rome', temperature_c: 18, conditions: 'sunny' })
    }
    expect(() => instrumentAgentsModel(null as unknown as Model)).toThrow(
      'instrumentAgentsModel(model) needs a Model of @openai/agents (an object with getResponse and getStreamedResponse), got null.',
    )
  })

  it('leaves runs outside a session alone: the model answers, nothing is recorded, nothing is warned', async () => {
    const warnings = captureWarnings()
    const server = await startCannedServer(inOrder(...responses(false)))
    const result = await run(weatherAgent(server), 'What is the weather in Paris?')
    expect(result.finalOutput).toBe('It is 18°C and sunny in Paris.')
    expect(server.requests).toHaveLength(2)
    expect(await warnings.seen()).toEqual([])
  })

  it('keeps concurrent sessions apart: each run records into the session it started in', async () => {
    const record = async (name: string) => {
      const server = await startCannedServer(inOrder(...responses(name === 'streamed')))
      return session(name, { save: false }, () => runAgent(weatherAgent(server), `Weather for ${name}?`, { stream: name === 'streamed' }))
    }
    const sessions = await Promise.all(['plain', 'streamed', 'another'].map(record))
    for (const s of sessions) {
      expect(s.trace.turns).toHaveLength(2)
      expect(s.trace.turns[0]!.llm_call.messages![1]).toEqual({ role: 'user', content: `Weather for ${s.name}?` })
    }
  })

  it("records a model call the API refused with its error, and the run fails with the SDK's error unchanged", async () => {
    const server = await startCannedServer(inOrder({ status: 500, json: fixtureJson('openai/error-500.json') }))
    const traceDir = tempDir('agents-')
    const { triage } = triageAgents(chatModel(server))

    await expect(session('support', { traceDir }, () => runAgent(triage, 'I was charged twice for order 42.'))).rejects.toBeInstanceOf(InternalServerError)

    const trace = loadChain('support', { traceDir }).trace
    expect(trace.status).toBe('failed')
    expect(trace.turns.map((turn) => [turn.llm_call.provider, turn.llm_call.response_text, turn.llm_call.error?.name])).toEqual([
      ['openai', null, 'InternalServerError'],
    ])
  })
})
