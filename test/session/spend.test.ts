import { describe, expect, it } from 'vitest'
import '../../src/entries/vitest.js'
import { session, type Session } from '../../src/entries/index.js'
import { judge } from '../../src/entries/simulate.js'
import { openHelperSession } from '../../src/simulate/helper-session.js'
import { tempDir } from '../helpers/temp-dir.js'

const AGENT_LIMIT_USD = 0.001

/** The agent: one cheap call (gpt-4o-mini: $0.15 / $0.60 per 1M tokens). */
function agentCall(s: Session): void {
  s.logLlmCall({ responseText: 'Refunded order 42.', model: 'gpt-4o-mini', tokenUsage: { input_tokens: 1000, output_tokens: 100 } })
}

/** A support run whose simulated user and simulated tools spend far more than the agent. */
async function supportRun(): Promise<Session<void>> {
  return session('support', { traceDir: tempDir(), metadata: { goal: 'Refund order 42' } }, async (s) => {
    const user = openHelperSession(s, 'user', {}, 'completed')!
    // gpt-4o: $2.50 / $10 per 1M tokens.
    user.session.logLlmCall({ responseText: 'I want a refund for 42', model: 'gpt-4o', tokenUsage: { input_tokens: 20_000, output_tokens: 500 } })
    const tools = openHelperSession(s, 'tools', {}, 'completed')!
    tools.session.logLlmCall({ toolCalls: [], model: 'gpt-4o', tokenUsage: { input_tokens: 4000, output_tokens: 200 } })
    tools.session.logLlmCall({ toolCalls: [], model: 'my-simulator', tokenUsage: { input_tokens: 100, output_tokens: 10 } })
    agentCall(s)
    await user.close()
  })
}

/** A judge whose own model call (o1: $15 / $60 per 1M tokens) is recorded in the judge's run. */
const costlyJudge = judge({
  rubric: 'The agent refunds order 42',
  model: ({ session: own }) => {
    own.logLlmCall({ responseText: 'pass', model: 'o1', tokenUsage: { input_tokens: 10_000, output_tokens: 1000 } })
    return { pass: true, score: 1 }
  },
})

describe('s.spend()', () => {
  it('splits what a run spent into the agent, its simulated user, its judges and its simulated tools, priced by the built-in table', async () => {
    const s = await supportRun()
    await costlyJudge(s)
    expect(s.spend()).toEqual({
      agent: { inputTokens: 1000, outputTokens: 100, tokens: 1100, usd: 0.00021, unpricedModels: [] },
      user: { inputTokens: 20_000, outputTokens: 500, tokens: 20_500, usd: 0.055, unpricedModels: [] },
      judge: { inputTokens: 10_000, outputTokens: 1000, tokens: 11_000, usd: 0.21, unpricedModels: [] },
      tools: { inputTokens: 4100, outputTokens: 210, tokens: 4310, usd: 0.012, unpricedModels: ['my-simulator'] },
      total: { inputTokens: 35_100, outputTokens: 1810, tokens: 36_910, usd: 0.27721, unpricedModels: ['my-simulator'] },
    })
  })

  it('is all agent for a run without helpers, and says when nothing could be priced', async () => {
    const s = await session('plain', { save: false }, (s) => {
      agentCall(s)
      s.logLlmCall({ responseText: 'ok', model: null, tokenUsage: { input_tokens: 5, output_tokens: 1 } })
    })
    const none = { inputTokens: 0, outputTokens: 0, tokens: 0, usd: 0, unpricedModels: [] }
    const agent = { inputTokens: 1005, outputTokens: 101, tokens: 1106, usd: 0.00021, unpricedModels: ['(no model)'] }
    expect(s.spend()).toEqual({ agent, user: none, judge: none, tools: none, total: agent })
    const unpriced = await session('unpriced', { save: false }, (s) => {
      s.logLlmCall({ responseText: 'ok', model: 'my-fine-tune', tokenUsage: { input_tokens: 5, output_tokens: 1 } })
    })
    expect(unpriced.spend().agent).toEqual({ inputTokens: 5, outputTokens: 1, tokens: 6, usd: null, unpricedModels: ['my-fine-tune'] })
  })
})

describe("the agent's budgets leave out its simulated user, judges and simulated tools", () => {
  it('toCostLessThan, toStayWithinTokens, assertCostUnder and assertTotalTokensUnder pass on the agent alone while the helpers spend 1000x more', async () => {
    const s = await supportRun()
    await costlyJudge(s)
    expect(s.spend().total.usd).toBeGreaterThan(1000 * s.spend().agent.usd!)

    expect(s).toCostLessThan(AGENT_LIMIT_USD)
    expect(s).toStayWithinTokens(1100)
    s.assertCostUnder({ usd: AGENT_LIMIT_USD })
    s.assertTotalTokensUnder(1100)
    // The agent's own spend is what they check: a limit under it fails.
    expect(() => expect(s).toStayWithinTokens(1099)).toThrow(/^Total tokens 1100 exceeds limit of 1099/)
  })
})
