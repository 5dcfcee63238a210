// test/run-helpers.test.ts
import { expect, test } from 'vitest'
import { session } from 'reagent-flow'

test('reads what the agent did', async () => {
  const s = await session('support-agent', { save: false }, (s) => {
    s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: 'refund policy' } }] })
    s.logToolResult('search', { result: ['Refunds within 30 days.'] })
    s.logLlmCall({ responseText: 'You can get a refund within 30 days.' })
  })
  expect(s.toolNames()).toEqual(['search']) // names in call order, repeats kept
  expect(s.toolCalls('search')[0]?.arguments).toEqual({ q: 'refund policy' }) // the calls (of one tool, if named)
  expect(s.finalAnswer).toBe('You can get a refund within 30 days.') // the last text answer, or null
})
