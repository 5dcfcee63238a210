// test/stand-ins.test.ts
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { session } from 'reagent-flow'

test('values JSON cannot hold are written as stand-ins, and recording goes on', async () => {
  const order: Record<string, unknown> = { id: 42n, placed: new Date(0), tags: new Set(['gift']), total: Number.NaN }
  order.self = order // circular

  const s = await session('stand-ins', (s) => {
    const [id] = s.logLlmCall({ toolCalls: [{ name: 'save_order', arguments: { order } }] })
    s.logToolResult('save_order', { callId: id, result: { saved: true, note: undefined, receipt: Promise.resolve('r-1') } })
  })

  const written = JSON.parse(readFileSync(s.path!, 'utf8'))
  expect(written.turns[0].llm_call.tool_calls[0].arguments).toEqual({
    order: { id: '42', placed: '1970-01-01T00:00:00.000Z', tags: ['gift'], total: 'NaN', self: '[Circular]' },
  })
  expect(written.turns[0].tool_results[0].result).toEqual({ saved: true, note: null, receipt: '[Promise]' })
})
