// test/log-by-hand.test.ts
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { AmbiguousToolCallError, session, type Session } from 'reagent-flow'

// An agent on a model no adapter covers logs each model call and tool result itself.
function refundAgent(s: Session, orderId: string): string {
  const [lookup] = s.logLlmCall({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: `Refund order ${orderId}` }],
    toolCalls: [{ name: 'lookup_order', arguments: { order_id: orderId } }],
    tokenUsage: { prompt_tokens: 120, completion_tokens: 18 },
  })
  s.logToolResult('lookup_order', { callId: lookup, result: { order_id: orderId, amount: 19.99 }, durationMs: 3 })
  s.logLlmCall({ model: 'gpt-4o', responseText: `Refunded order ${orderId}.`, tokenUsage: { prompt_tokens: 160, completion_tokens: 9 } })
  return `Refunded order ${orderId}.`
}

test('records each model call as a turn, with its tool results', async () => {
  const s = await session('refund-agent', (s) => refundAgent(s, '42'))

  expect(s.output).toBe('Refunded order 42.') // typed string: session() resolved, so the function returned
  expect(s.status).toBe('completed')
  expect(s.toolNames()).toEqual(['lookup_order'])
  expect(s.trace.turns[0]?.llm_call.token_usage).toEqual({ input_tokens: 120, output_tokens: 18 })
  expect(s.trace.turns[0]?.tool_results[0]).toMatchObject({ result: { order_id: '42', amount: 19.99 }, error: null, duration_ms: 3 })
  expect(JSON.parse(readFileSync(s.path!, 'utf8')).trace_id).toBe(s.traceId) // the file on disk
})

test('a run that throws is written as failed, and the test gets the very same error', async () => {
  const outage = new Error('payments API is down')
  let run: Session | undefined
  const refund = session('refund-agent', (s) => {
    run = s
    s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42' } }] })
    throw outage
  })

  await expect(refund).rejects.toBe(outage)
  expect(run?.status).toBe('failed')
  expect(run?.trace.error).toMatchObject({ name: 'Error', message: 'payments API is down' })
  expect(run?.trace.turns).toHaveLength(1) // what was recorded before the throw is kept
})

test('a result finds its call by id; two pending calls of one tool need the id', async () => {
  await session('two-lookups', { save: false }, (s) => {
    const [first, second] = s.logLlmCall({
      toolCalls: [
        { name: 'lookup_order', arguments: { order_id: '42' } },
        { name: 'lookup_order', arguments: { order_id: '43' } },
      ],
    })
    expect(() => s.logToolResult('lookup_order', { result: { amount: 5 } })).toThrow(AmbiguousToolCallError)
    s.logToolResult('lookup_order', { callId: second, result: { amount: 5 } })
    s.logToolResult('lookup_order', { result: { amount: 19.99 } }) // the one call still pending: the first
    expect(s.trace.turns[0]?.tool_results.map((result) => result.call_id)).toEqual([second, first])
  })
})
