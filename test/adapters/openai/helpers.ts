/**
 * The real OpenAI client pointed at the canned local server, instrumented
 * (or not), and matchers for the parts of a recorded trace that vary per run.
 */
import OpenAI from 'openai'
import { expect } from 'vitest'
import { instrumentOpenAI } from '../../../src/entries/openai.js'
import { fixtureJson, fixtureText, type CannedResponse, type CannedServer } from '../../helpers/canned-server.js'

export function openaiClient(server: CannedServer, { instrument = true } = {}): OpenAI {
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 0 })
  return instrument ? instrumentOpenAI(client) : client
}

/** The id of the weather agent's tools (its one `get_weather`): the same in both APIs, which offer the same tool (see tools-offered.test.ts). */
export const WEATHER_TOOL_SET = 'ts_1611ddbd585d'

/** A canned JSON body from fixtures/openai/. */
export function json(path: string, status = 200): CannedResponse {
  return { status, json: fixtureJson(`openai/${path}`) }
}

/** A canned SSE body from fixtures/openai/. */
export function sse(path: string): CannedResponse {
  return { sse: fixtureText(`openai/${path}`) }
}

/** A recorded tool call: its timestamp is the call's start time. */
export function toolCall(name: string, args: Record<string, unknown>, callId: string): unknown {
  return { name, arguments: args, call_id: callId, timestamp: expect.any(Number) }
}

/** A recorded tool result whose duration was measured. */
export function toolResult(callId: string, result: unknown): unknown {
  return { call_id: callId, result, error: null, duration_ms: expect.any(Number) }
}

/** Token usage as chat completions fixtures report it, in the trace's names. */
export function chatUsage(input: number, output: number, cached = 0): Record<string, unknown> {
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  }
}

/** Token usage as Responses API fixtures report it. */
export function responsesUsage(input: number, output: number, cached = 0): Record<string, unknown> {
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_tokens_details: { cached_tokens: cached },
    output_tokens_details: { reasoning_tokens: 0 },
  }
}
