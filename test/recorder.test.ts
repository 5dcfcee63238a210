import { describe, expect, it } from 'vitest'
import { AmbiguousToolCallError } from '../src/entries/index.js'
import { Recorder } from '../src/session/recorder.js'
import { normalizeTokenUsage } from '../src/trace/tokens.js'
import { captureWarnings } from './helpers/warnings.js'

function recorder(): Recorder {
  return new Recorder('01JD0000000000000000ABCDEF', () => undefined)
}

describe('Recorder.logLlmCall', () => {
  it('opens one turn per call and returns the call ids in order, generating missing ones', () => {
    const r = recorder()
    const ids = r.logLlmCall({
      toolCalls: [
        { name: 'search', arguments: { q: 'paris' }, callId: 'toolu_01' },
        { name: 'search', arguments: { q: 'rome' } },
      ],
    })
    expect(ids).toEqual(['toolu_01', 'rf_1_abcdef'])
    expect(r.turns).toHaveLength(1)
    expect(r.turns[0]!.index).toBe(0)
    expect(r.turns[0]!.llm_call.tool_calls.map((c) => Object.keys(c))).toEqual([
      ['name', 'arguments', 'call_id', 'timestamp'],
      ['name', 'arguments', 'call_id', 'timestamp'],
    ])
  })

  it('parses JSON-string arguments and keeps invalid JSON under _raw_arguments', () => {
    const r = recorder()
    r.logLlmCall({
      toolCalls: [
        { name: 'a', arguments: '{"city":"Paris"}' },
        { name: 'b', arguments: '{"city":' },
        { name: 'c', arguments: '' },
        { name: 'd', arguments: [1, 2] },
      ],
    })
    expect(r.turns[0]!.llm_call.tool_calls.map((c) => c.arguments)).toEqual([{ city: 'Paris' }, { _raw_arguments: '{"city":' }, {}, { _value: [1, 2] }])
  })

  it('keeps only role and content of each message', () => {
    const r = recorder()
    r.logLlmCall({
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'tool', content: '{"ok":true}', tool_call_id: 'call_1', name: 'lookup' }, 'plain text'],
    })
    expect(r.turns[0]!.llm_call.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'tool', content: '{"ok":true}' },
      { role: 'user', content: 'plain text' },
    ])
  })

  it('keeps latency, stop reason and a failed call’s error on the LLM call', () => {
    const r = recorder()
    r.logLlmCall({ latencyMs: 120, stopReason: 'tool_calls', error: new TypeError('bad request') })
    const call = r.turns[0]!.llm_call
    expect(call.latency_ms).toBe(120)
    expect(call.stop_reason).toBe('tool_calls')
    expect(call.error).toMatchObject({ name: 'TypeError', message: 'bad request' })
    expect(r.turns[0]!.duration_ms).toBe(120)
  })

  it('keeps who served the call as provider, and writes no provider key when none is given', () => {
    const r = recorder()
    r.logLlmCall({ provider: 'anthropic' })
    r.logLlmCall({ provider: null })
    expect(r.turns[0]!.llm_call.provider).toBe('anthropic')
    expect(r.turns[1]!.llm_call).not.toHaveProperty('provider')
  })

  it('copies logged values, so later mutation by the agent does not rewrite history', () => {
    const r = recorder()
    const args = { items: ['a'] }
    r.logLlmCall({ toolCalls: [{ name: 'cart', arguments: args }] })
    args.items.push('b')
    expect(r.turns[0]!.llm_call.tool_calls[0]!.arguments).toEqual({ items: ['a'] })
  })
})

describe('normalizeTokenUsage', () => {
  it('maps OpenAI names (counts and their details) to input/output tokens and keeps the extras', () => {
    expect(normalizeTokenUsage({ prompt_tokens: 120, completion_tokens: 18, total_tokens: 138, prompt_tokens_details: { cached_tokens: 100 } })).toEqual({
      input_tokens: 120,
      output_tokens: 18,
      total_tokens: 138,
      input_tokens_details: { cached_tokens: 100 },
    })
  })

  it('converts camelCase names and never lets an alias override a canonical count', () => {
    expect(normalizeTokenUsage({ inputTokens: 5, outputTokens: 7, cachedInputTokens: 2, promptTokens: 99 })).toEqual({
      input_tokens: 5,
      output_tokens: 7,
      cached_input_tokens: 2,
    })
  })

  it('returns null for a missing usage', () => {
    expect(normalizeTokenUsage(undefined)).toBeNull()
  })
})

describe('Recorder.logToolResult', () => {
  it('matches by call id, in any turn', () => {
    const r = recorder()
    const [first] = r.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: 1 } }] })
    r.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: 2 } }] })
    r.logToolResult('search', { callId: first!, result: 'one' })
    expect(r.turns[0]!.tool_results.map((t) => t.result)).toEqual(['one'])
    expect(r.turns[1]!.tool_results).toEqual([])
  })

  it('matches the single pending call of that name when no id is given', () => {
    const r = recorder()
    const [id] = r.logLlmCall({ toolCalls: [{ name: 'lookup' }, { name: 'search' }] })
    r.logToolResult('lookup', { result: 1, durationMs: 4.5 })
    expect(r.turns[0]!.tool_results).toEqual([{ call_id: id, result: 1, error: null, duration_ms: 4.5 }])
  })

  it('throws AmbiguousToolCallError naming both call ids when two calls of that name are pending', () => {
    const r = recorder()
    r.logLlmCall({
      toolCalls: [
        { name: 'search', callId: 'toolu_01' },
        { name: 'search', callId: 'toolu_02' },
      ],
    })
    expect(() => r.logToolResult('search', { result: 1 })).toThrowError(new AmbiguousToolCallError('search', ['toolu_01', 'toolu_02']))
    expect(() => r.logToolResult('search', { result: 1 })).toThrowError(
      'Cannot tell which call of "search" this result belongs to: 2 calls are pending ("toolu_01", "toolu_02"). ' +
        'Pass { callId } to logToolResult to pick one.',
    )
  })

  it('writes an Error as "Name: message"', () => {
    const r = recorder()
    r.logLlmCall({ toolCalls: [{ name: 'fetch' }] })
    r.logToolResult('fetch', { error: new Error('upstream took 30s') })
    expect(r.turns[0]!.tool_results[0]).toMatchObject({ result: null, error: 'Error: upstream took 30s' })
  })

  it('keeps a result that matches no call on the latest turn, with its tool name, and warns', async () => {
    const warnings = captureWarnings()
    const r = recorder()
    r.logLlmCall({ toolCalls: [{ name: 'search' }] })
    r.logToolResult('search', { result: 'ok' })
    r.logToolResult('search', { result: 'again' })
    const turn = r.turns[0]!
    expect(turn.tool_results.map((t) => t.result)).toEqual(['ok', 'again'])
    expect(turn.unmatched_results).toEqual([{ call_id: 'rf_orphan_1_abcdef', name: 'search' }])
    expect(await warnings.seen()).toEqual([
      {
        code: 'REAGENT_ORPHAN_RESULT',
        message:
          'reagent-flow: a result for "search" matched no pending call (call id "rf_orphan_1_abcdef"); it is kept on turn 0 ' +
          'with its tool name under unmatched_results. Log the LLM call that requested the tool first, or pass the callId it returned.',
      },
    ])
  })

  it('keeps a result logged before any LLM call under orphanResults', async () => {
    const warnings = captureWarnings()
    const r = recorder()
    r.logToolResult('early', { result: 1, callId: 'x1' })
    expect(r.orphanResults).toEqual([{ name: 'early', call_id: 'x1', result: 1, error: null, duration_ms: 0 }])
    expect((await warnings.seen()).map((w) => w.message)).toEqual([
      'reagent-flow: a result for "early" matched no pending call (call id "x1"); it is kept under orphan_results because ' +
        'no LLM call was logged yet. Log the LLM call that requested the tool first, or pass the callId it returned.',
    ])
  })

  it('skips a second report of the same call when asked to, and keeps it with a warning otherwise', async () => {
    const warnings = captureWarnings()
    const r = recorder()
    const [id] = r.logLlmCall({ toolCalls: [{ name: 'lookup' }] })
    r.logToolResult('lookup', { callId: id!, result: 'exact' })
    expect(r.logToolResult('lookup', { callId: id!, result: 'from next request' }, true)).toBeUndefined()
    expect(r.turns[0]!.tool_results.map((t) => t.result)).toEqual(['exact'])
    r.logToolResult('lookup', { callId: id!, result: 'user logged twice' })
    expect(r.turns[0]!.tool_results.map((t) => t.result)).toEqual(['exact', 'user logged twice'])
    expect((await warnings.seen()).map((w) => w.code)).toEqual(['REAGENT_DUPLICATE_RESULT'])
  })

  it('fills turn.duration_ms from the LLM call to its last result', async () => {
    const r = recorder()
    r.logLlmCall({ toolCalls: [{ name: 'slow' }] })
    await new Promise((resolve) => setTimeout(resolve, 30))
    r.logToolResult('slow', { result: 1 })
    expect(r.turns[0]!.duration_ms).toBeGreaterThanOrEqual(25)
  })

  it('keeps both calls of a name pending until one is answered, then matches a name-only result to the other', () => {
    const r = recorder()
    const [a, b] = r.logLlmCall({ toolCalls: [{ name: 'x' }, { name: 'x' }] })
    expect(() => r.logToolResult('x', { result: 'which?' })).toThrowError(new AmbiguousToolCallError('x', [a!, b!]))
    r.logToolResult('x', { callId: b!, result: 'b' })
    expect(r.logToolResult('x', { result: 'a' })?.call_id).toBe(a)
    expect(r.toolNameOf(a!)).toBe('x')
    expect(r.toolNameOf('nope')).toBeUndefined()
  })
})

describe('Recorder.claimPendingCall', () => {
  it('takes the pending call whose arguments match, given as an object or as its JSON text', () => {
    const r = recorder()
    const [paris, rome, oslo] = r.logLlmCall({
      toolCalls: [
        { name: 'weather', arguments: { city: 'Paris' } },
        { name: 'weather', arguments: '{"city":"Rome"}' },
        { name: 'weather', arguments: { city: 'Oslo' } },
      ],
    })
    expect(r.claimPendingCall('weather', '{"city":"Rome"}')).toBe(rome)
    expect(r.claimPendingCall('weather', { city: 'Oslo' })).toBe(oslo)
    expect(r.claimPendingCall('weather', 'not json')).toBe(paris)
    expect(r.claimPendingCall('weather')).toBeUndefined()
  })
})

describe('Recorder.logResultOf', () => {
  it('records the outcome of a known, unanswered call under its tool name, timed from the end of its response', async () => {
    const r = recorder()
    const [id] = r.logLlmCall({ toolCalls: [{ name: 'lookup', callId: 'call_1' }], latencyMs: 0 })
    await new Promise((resolve) => setTimeout(resolve, 30))
    r.logResultOf(id!, () => ({ result: { ok: true } }))
    expect(r.turns[0]!.tool_results).toEqual([{ call_id: 'call_1', result: { ok: true }, error: null, duration_ms: expect.any(Number) }])
    expect(r.turns[0]!.tool_results[0]!.duration_ms).toBeGreaterThanOrEqual(25)
  })

  it('leaves an answered or unknown call alone, without building its outcome', () => {
    const r = recorder()
    const [answered, pending] = r.logLlmCall({ toolCalls: [{ name: 'x' }, { name: 'x' }] })
    r.logToolResult('x', { callId: answered!, result: 'first' })
    let built = 0
    const outcome = () => {
      built += 1
      return { error: 'late' }
    }
    expect(r.logResultOf(answered!, outcome)).toBeUndefined()
    expect(r.logResultOf('call_from_before', outcome)).toBeUndefined()
    expect(built).toBe(0)
    expect(r.logResultOf(pending!, outcome, 7)).toEqual({ call_id: pending, result: null, error: 'late', duration_ms: 7 })
    expect(built).toBe(1)
  })
})
