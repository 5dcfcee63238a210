/**
 * Deterministic traces for assertion and report tests: fixed ids, times and
 * durations, so a failure message can be asserted byte for byte. Every trace
 * built here is checked against the trace schema.
 */
import { vi } from 'vitest'
import { AgentAssertionError } from '../../src/entries/index.js'
import { validateTrace } from '../../src/trace/validate.js'
import type { JsonObject, JsonValue, TokenUsage, Trace, Turn } from '../../src/trace/types.js'

export interface CallSpec {
  name: string
  args?: JsonObject
  /** The result; omitted with `error` or `noResult`. */
  result?: JsonValue
  error?: string
  noResult?: boolean
  ms?: number
}

export interface TurnSpec {
  calls?: CallSpec[]
  text?: string
  model?: string | null
  tokens?: TokenUsage | null
  ms?: number
}

export function buildTrace(name: string, turns: TurnSpec[], extra: Partial<Trace> = {}): Trace {
  let callNumber = 0
  const built: Turn[] = turns.map((spec, index) => {
    const timestamp = 1_800_000_000 + index
    const calls = (spec.calls ?? []).map((call) => ({ ...call, id: `call_${++callNumber}` }))
    return {
      index,
      llm_call: {
        messages: null,
        response_text: spec.text ?? null,
        tool_calls: calls.map((call) => ({ name: call.name, arguments: call.args ?? {}, call_id: call.id, timestamp })),
        model: spec.model === undefined ? 'gpt-4o' : spec.model,
        token_usage: spec.tokens === undefined ? null : spec.tokens,
        timestamp,
      },
      tool_results: calls
        .filter((call) => call.noResult !== true)
        .map((call) => ({
          call_id: call.id,
          result: call.error === undefined ? (call.result ?? null) : null,
          error: call.error ?? null,
          duration_ms: call.ms ?? 0,
        })),
      duration_ms: spec.ms ?? 0,
    }
  })
  return validateTrace({
    trace_id: `trace-${name}`,
    name,
    turns: built,
    metadata: {},
    started_at: 1_800_000_000,
    ended_at: 1_800_000_000 + 1.5,
    format_version: '1',
    parent_trace_id: null,
    handoff_context: null,
    status: 'completed',
    error: null,
    ...extra,
  })
}

/** Runs an assertion that must fail, with colour off, and returns its error. */
export function failureOf(assertion: () => void): AgentAssertionError {
  vi.stubEnv('NO_COLOR', '1')
  try {
    assertion()
  } catch (error) {
    if (error instanceof AgentAssertionError) return error
    throw error
  } finally {
    vi.unstubAllEnvs()
  }
  throw new Error('the assertion passed, but it was expected to fail')
}
