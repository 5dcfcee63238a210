/**
 * What recording an Agents SDK run costs: the same two-turn run (a function
 * tool, then the answer; the model is a scripted `Model`, so no network is in
 * the figure) recorded inside a session, and run outside any session with
 * the adapter installed, each against the run with the SDK's tracing off and
 * nothing recorded. Runs alternate one by one (compareCalls).
 *
 * The SDK's tracing is turned off by environment before it loads, as under
 * NODE_ENV=test: instrumentOpenAIAgents() then turns it on for its own
 * processor only, and nothing tries to export to OpenAI from this process.
 */
import type { BenchSuite } from '../run.js'
import { compareCalls } from '../lib/measure.js'

process.env['OPENAI_AGENTS_DISABLE_TRACING'] = '1'

export const suite: BenchSuite = {
  name: 'openai-agents',
  async run() {
    const { Agent, Runner, tool, Usage } = await import('@openai/agents')
    const { z } = await import('zod')
    const { session } = await import('reagent-flow')
    const { instrumentAgentsModel, instrumentOpenAIAgents } = await import('reagent-flow/openai-agents')
    type Model = import('@openai/agents').Model
    type ModelResponse = import('@openai/agents').ModelResponse

    const usage = () => new Usage({ requests: 1, inputTokens: 40, outputTokens: 8, totalTokens: 48 })
    const scriptedModel = (): Model => {
      let turn = 0
      return {
        getResponse: async (): Promise<ModelResponse> => {
          turn += 1
          return turn % 2 === 1
            ? {
                usage: usage(),
                output: [{ type: 'function_call', callId: `call_${turn}`, name: 'get_weather', arguments: '{"city":"Rome"}', status: 'completed' }],
              }
            : {
                usage: usage(),
                output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Sunny in Rome.' }] }],
              }
        },
        getStreamedResponse: () => {
          throw new Error('not streamed in this bench')
        },
      }
    }
    const getWeather = tool({
      name: 'get_weather',
      description: 'Weather.',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => ({ city, temperature_c: 21 }),
    })

    instrumentOpenAIAgents()
    const recorded = new Agent({ name: 'Weather agent', model: instrumentAgentsModel(scriptedModel()), tools: [getWeather] })
    const plain = new Agent({ name: 'Weather agent', model: scriptedModel(), tools: [getWeather] })
    const traced = new Runner()
    const untraced = new Runner({ tracingDisabled: true })

    const inSession = await compareCalls(
      () => traced.run(recorded, 'Rome?'),
      () => untraced.run(plain, 'Rome?'),
      { calls: 100, rounds: 10, around: async (round) => void (await session('bench-agents', { save: false }, round)) },
    )
    const outside = await compareCalls(
      () => traced.run(recorded, 'Rome?'),
      () => untraced.run(plain, 'Rome?'),
      { calls: 100, rounds: 10 },
    )
    const check = await session('bench-agents-check', { save: false }, () => traced.run(recorded, 'Rome?'))
    if (check.trace.turns.length !== 2 || check.trace.turns[0]!.tool_results.length !== 1)
      throw new Error('bench: the run was not recorded as two turns with a tool result')
    const suiteName = 'OpenAI Agents SDK: a two-turn run with a function tool (scripted model, no network)'
    return [
      {
        suite: suiteName,
        name: 'run inside a session, recorded (µs per run)',
        value: inSession.oursUs,
        unit: 'µs',
        baseline: inSession.baselineUs,
        baselineName: 'tracing off, not recorded',
      },
      {
        suite: suiteName,
        name: 'run outside any session, adapter installed (µs per run)',
        value: outside.oursUs,
        unit: 'µs',
        baseline: outside.baselineUs,
        baselineName: 'tracing off, not recorded',
      },
    ]
  },
}
