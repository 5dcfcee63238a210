/**
 * The real Anthropic SDK, pointed at the canned local server, and a view of a
 * recorded trace without the fields that change from run to run (times,
 * durations), so tests can compare whole turns exactly.
 */
import Anthropic from '@anthropic-ai/sdk'
import { instrumentAnthropic } from '../../../src/entries/anthropic.js'
import type { Trace, Turn } from '../../../src/entries/index.js'
import type { CannedServer } from '../../helpers/canned-server.js'

export const MODEL = 'claude-sonnet-4-6'

export function plainClient(server: CannedServer, options: { maxRetries?: number } = {}): Anthropic {
  return new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-test-key', maxRetries: options.maxRetries ?? 0 })
}

export function instrumentedClient(server: CannedServer, options: { maxRetries?: number } = {}): Anthropic {
  return instrumentAnthropic(plainClient(server, options))
}

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather of a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
}

/** Turns with times and durations zeroed; each one is checked to be a non-negative number first. */
export function stableTurns(trace: Trace): Turn[] {
  const zero = (value: unknown): number => {
    if (typeof value !== 'number' || !(value >= 0)) throw new Error(`expected a time or duration, got ${String(value)}`)
    return 0
  }
  return trace.turns.map((turn) => ({
    ...turn,
    duration_ms: zero(turn.duration_ms),
    llm_call: {
      ...turn.llm_call,
      timestamp: zero(turn.llm_call.timestamp),
      ...(turn.llm_call.latency_ms === undefined ? {} : { latency_ms: zero(turn.llm_call.latency_ms) }),
      tool_calls: turn.llm_call.tool_calls.map((call) => ({ ...call, timestamp: zero(call.timestamp) })),
    },
    tool_results: turn.tool_results.map((result) => ({ ...result, duration_ms: zero(result.duration_ms) })),
  }))
}
