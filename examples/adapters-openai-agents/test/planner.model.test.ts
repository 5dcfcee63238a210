// test/planner.model.test.ts
import { Agent, run, Usage, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents'
import { expect } from 'vitest'
import { instrumentAgentsModel } from 'reagent-flow/openai-agents'
import { test } from 'reagent-flow/vitest'

// A Model of your own (a local model server, another provider's API): this one always answers with one plan.
class PlannerModel implements Model {
  async getResponse(_request: ModelRequest): Promise<ModelResponse> {
    const text = '1. Look the order up. 2. Refund it.'
    return {
      output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] }],
      usage: new Usage({ requests: 1, inputTokens: 12, outputTokens: 9, totalTokens: 21 }),
    }
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const { output } = await this.getResponse(request)
    yield { type: 'response_done', response: { id: 'plan', usage: { inputTokens: 12, outputTokens: 9, totalTokens: 21 }, output } } as StreamEvent
  }
}

test('a model of your own is recorded with the provider you name', async ({ agentSession }) => {
  const planner = new Agent({ name: 'Planner', instructions: 'Plan the steps.', model: instrumentAgentsModel(new PlannerModel(), { provider: 'local' }) })

  const s = await agentSession(async () => (await run(planner, 'Refund order 42.')).finalOutput)

  expect(s).toHaveFinalAnswer('1. Look the order up. 2. Refund it.')
  expect(s.trace.turns[0]!.llm_call).toMatchObject({ provider: 'local', token_usage: { input_tokens: 12, output_tokens: 9 } })
})
