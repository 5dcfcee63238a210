/**
 * A trace directory like a busy project's: many recorded runs of realistic
 * size (each LLM call carries the conversation so far, tool results are a
 * few hundred bytes), some failed, some graded. Deterministic.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Trace, Turn } from 'reagent-flow'

const SYSTEM = 'You are a support agent for an online shop. '.repeat(30)
const BASE_TIME = 1_796_000_000

function turnsOf(run: number, count: number, started: number): Turn[] {
  const messages = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Please look into order ${run}: it arrived damaged and I want a refund.` },
  ]
  const turns: Turn[] = []
  for (let index = 0; index < count; index++) {
    const timestamp = started + index * 0.8
    const last = index === count - 1
    const callId = `call_${run}_${index}`
    const result = { order_id: String(run), rows: Array.from({ length: 6 }, (_, i) => ({ sku: `SKU-${run}-${i}`, qty: i + 1, price: 9.99 + i })) }
    turns.push({
      index,
      llm_call: {
        messages: messages.map((m) => ({ ...m })),
        response_text: last ? `Refunded order ${run}. The money is back in 3-5 days.` : null,
        tool_calls: last ? [] : [{ name: index % 2 === 0 ? 'lookup_order' : 'check_policy', arguments: { order_id: String(run) }, call_id: callId, timestamp }],
        model: 'gpt-4o-2024-08-06',
        token_usage: { input_tokens: 400 + 120 * index, output_tokens: 30 },
        timestamp,
      },
      tool_results: last ? [] : [{ call_id: callId, result, error: null, duration_ms: 12.5 }],
      duration_ms: 800,
    })
    if (!last) messages.push({ role: 'tool', content: JSON.stringify(result) })
  }
  return turns
}

/** Writes `count` traces into `dir` as the recorder writes them; returns the total size in bytes. */
export function writeTraceDir(dir: string, count: number): number {
  mkdirSync(dir, { recursive: true })
  let bytes = 0
  for (let run = 0; run < count; run++) {
    const started = BASE_TIME + run * 37
    const turns = turnsOf(run, 2 + (run % 9), started)
    const failed = run % 13 === 0
    const trace: Trace = {
      trace_id: `01JBENCH${String(run).padStart(18, '0')}`,
      name: `agent-${run}`,
      turns,
      metadata: { goal: `Refund order ${run}`, budget_usd: 0.05 },
      started_at: started,
      ended_at: started + turns.length * 0.8,
      format_version: '1',
      parent_trace_id: null,
      handoff_context: null,
      status: failed ? 'failed' : 'completed',
      error: failed ? { name: 'TimeoutError', message: 'the payments API did not answer in 30s' } : null,
      session_id: null,
      user_id: null,
      ...(run % 5 === 0 ? { grade: { grade: run % 10 === 0 ? 'pass' : 'fail', source: 'ci', reason: null, ref: null, graded_at: started + 60 } } : {}),
    }
    const text = `${JSON.stringify(trace, null, 2)}\n`
    writeFileSync(join(dir, `agent-${run}.trace.json`), text)
    bytes += Buffer.byteLength(text)
  }
  return bytes
}
