/**
 * A refund agent that is right in about 70% of its runs: each run draws,
 * from a random generator seeded with the run's number, whether it refunds
 * the order (right) or escalates it (wrong). The draws, so the pass rates,
 * are the same on every machine and in any order the runs go.
 */
import type { RunPosition, Session } from '../../src/entries/index.js'
import { seededRandom } from '../../fixtures/vitest-variants/agents.js'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** One run of the agent; `inFlight` counts the runs going at once. */
export async function flakyRefundAgent(s: Session, run: RunPosition, inFlight?: { now: number; max: number }): Promise<string> {
  const random = seededRandom(1000 + run.index)
  const isRight = random() < 0.7
  if (inFlight !== undefined) inFlight.max = Math.max(inFlight.max, ++inFlight.now)
  try {
    const [lookup] = s.logLlmCall({
      toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }],
      model: 'gpt-4o-mini',
      tokenUsage: { input_tokens: 100, output_tokens: 20 },
    })
    await sleep(2)
    s.logToolResult('lookup_order', { callId: lookup!, result: { order_id: '42', amount: 19.99 } })
    const tool = isRight ? 'issue_refund' : 'escalate'
    const [decision] = s.logLlmCall({
      toolCalls: [{ name: tool, arguments: { order_id: '42' } }],
      model: 'gpt-4o-mini',
      tokenUsage: { input_tokens: 150, output_tokens: 30 },
    })
    s.logToolResult(tool, { callId: decision!, result: { ok: true } })
    const answer = isRight ? 'Refunded 19.99.' : 'I passed your request on.'
    s.logLlmCall({ responseText: answer, model: 'gpt-4o-mini', tokenUsage: { input_tokens: 200, output_tokens: 10 } })
    return answer
  } finally {
    if (inFlight !== undefined) inFlight.now -= 1
  }
}
