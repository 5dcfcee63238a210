import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { session, type Session } from '../../src/entries/index.js'
import { normalizeTrace } from '../../src/entries/golden.js'
import { renderTrace } from '../../src/golden/trace-file.js'
import { tempDir } from '../helpers/temp-dir.js'

async function refundAgent(s: Session): Promise<string> {
  const [lookup] = s.logLlmCall({
    messages: [{ role: 'user', content: 'Refund order 42' }],
    toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }],
    model: 'gpt-4o',
    tokenUsage: { prompt_tokens: 120, completion_tokens: 18 },
    latencyMs: 12,
  })
  await new Promise((resolve) => setTimeout(resolve, 2))
  s.logToolResult('lookup_order', { callId: lookup!, result: { amount: 19.99 }, durationMs: 7 })
  s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { amount: 19.99 }, callId: `call_${Math.random()}` }] })
  s.logToolResult('issue_refund', { result: { ok: true } })
  s.logLlmCall({ responseText: 'Refunded $19.99.' })
  return 'done'
}

describe('golden normal form', () => {
  it('is byte-identical when the same behaviour is recorded twice', async () => {
    const traceDir = tempDir()
    const golden = join(traceDir, 'golden', 'refund.trace.json')
    const first = await session('refund', { traceDir, golden: true, metadata: { round: 1 } }, refundAgent)
    const bytes = readFileSync(golden, 'utf8')
    rmSync(golden)
    const second = await session('refund', { traceDir, golden: true, metadata: { round: 1 } }, refundAgent)
    expect(first.traceId).not.toBe(second.traceId)
    expect(readFileSync(golden, 'utf8')).toBe(bytes)
  })

  it('fixes ids, times and durations, and renumbers call ids in order of appearance', async () => {
    const s = await session('refund', { save: false }, refundAgent)
    const golden = normalizeTrace(s.trace)
    expect(golden).toMatchObject({ trace_id: 'golden', started_at: 0, ended_at: 0 })
    expect(golden.turns.map((t) => [t.duration_ms, t.llm_call.timestamp, t.llm_call.latency_ms])).toEqual([
      [0, 0, 0],
      [0, 0, undefined],
      [0, 0, undefined],
    ])
    expect(golden.turns.flatMap((t) => t.llm_call.tool_calls.map((c) => c.call_id))).toEqual(['call_1', 'call_2'])
    expect(golden.turns.flatMap((t) => t.tool_results.map((r) => [r.call_id, r.duration_ms]))).toEqual([
      ['call_1', 0],
      ['call_2', 0],
    ])
    expect(s.trace.trace_id).not.toBe('golden')
  })

  it('keeps behaviour an adapter records beside the call: the provider and the stop reason', async () => {
    const s = await session('provider', { save: false }, (s) => void s.logLlmCall({ responseText: 'Hi.', provider: 'openai', stopReason: 'stop' }))
    expect(normalizeTrace(s.trace).turns[0]!.llm_call).toMatchObject({ provider: 'openai', stop_reason: 'stop' })
  })

  it('writes times as floats, sorted keys and a trailing newline', async () => {
    const s = await session('refund', { save: false }, refundAgent)
    const text = renderTrace(s.trace, { golden: true, redact: false })
    expect(text).toMatch(/^\{\n {2}"ended_at": 0\.0,\n {2}"error": null,\n/)
    expect(text).toContain('"timestamp": 0.0')
    expect(text.endsWith('}\n')).toBe(true)
  })

  it('drops the error stack and the grade, and links a child to "golden-parent"', async () => {
    let child: Session | undefined
    await session('parent', { save: false }, async () => {
      child = await session('child', { save: false }, () => undefined)
    }).catch(() => undefined)
    const failing = await session('f', { save: false }, () => {
      throw new Error('boom')
    }).catch(() => undefined)
    expect(failing).toBeUndefined()
    const golden = normalizeTrace({
      ...child!.trace,
      error: { name: 'Error', message: 'boom', stack: 'at /home/x.js:1' },
      grade: { grade: 'pass', source: 'ci', reason: null, ref: null, graded_at: 1.5 },
    })
    expect(golden.error).toEqual({ name: 'Error', message: 'boom' })
    expect(golden.grade).toBeUndefined()
    expect(golden.parent_trace_id).toBe('golden-parent')
  })
})
