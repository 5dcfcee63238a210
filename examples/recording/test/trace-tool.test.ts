// test/trace-tool.test.ts
import { expect, test } from 'vitest'
import { session, traceTool } from 'reagent-flow'

const orders = new Map([['42', { order_id: '42', amount: 19.99 }]])

// Your tool, as your agent framework calls it; the wrapper has the same signature.
const lookupOrder = traceTool('lookup_order', async ({ order_id }: { order_id: string }) => {
  const order = orders.get(order_id)
  if (order === undefined) throw new RangeError(`no order ${order_id}`)
  return order
})

test('records each execution as the result of the call that asked for it', async () => {
  const s = await session('lookups', { save: false }, async (s) => {
    // The model asks for the tool twice in one turn (an adapter records this for you).
    s.logLlmCall({
      toolCalls: [
        { name: 'lookup_order', arguments: { order_id: '42' }, callId: 'call_a' },
        { name: 'lookup_order', arguments: { order_id: '7' }, callId: 'call_b' },
      ],
    })
    // The agent runs them in another order; each finds its call by its arguments.
    return Promise.allSettled([lookupOrder({ order_id: '7' }), lookupOrder({ order_id: '42' })])
  })

  expect(s.output.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled']) // errors reach the agent unchanged
  const results = s.trace.turns[0]?.tool_results ?? []
  expect(results.find((result) => result.call_id === 'call_a')).toMatchObject({ result: { order_id: '42', amount: 19.99 }, error: null })
  expect(results.find((result) => result.call_id === 'call_b')).toMatchObject({ result: null, error: 'RangeError: no order 7' })
})

test('outside a session the wrapper only calls the tool', async () => {
  await expect(lookupOrder({ order_id: '42' })).resolves.toEqual({ order_id: '42', amount: 19.99 })
})
