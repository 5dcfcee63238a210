// test/trace-files.test.ts
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { loadTrace, session, TraceFormatError, TraceNotFoundError } from 'reagent-flow'
import { saveTrace, validateTrace } from 'reagent-flow/files'
import { loadGolden } from 'reagent-flow/golden'

test('a recorded run is a file you can load, copy and check', async () => {
  const s = await session('refund-agent', (s) => {
    s.logLlmCall({ model: 'gpt-4o', toolCalls: [{ name: 'lookup_customer', arguments: { ssn: '123-45-6789' } }] })
  })

  const trace = loadTrace(s.path!) // the file session() wrote: snake_case, as in memory
  expect(trace.turns[0]?.llm_call.tool_calls[0]?.name).toBe('lookup_customer')

  const copy = saveTrace(trace, { traceDir: 'out', redact: ['ssn'] }) // returns the path
  expect(copy).toBe('out/refund-agent.trace.json')
  const text = readFileSync(copy, 'utf8')
  expect(validateTrace(JSON.parse(text)).format_version).toBe('1') // returns it typed, or throws
  expect(text).toContain('"ssn": "[REDACTED]"')
})

test('a file that breaks the format names the file, the JSON path and the rule', async () => {
  const s = await session('refund-agent', (s) => {
    const [call] = s.logLlmCall({ toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] })
    s.logToolResult('lookup_order', { callId: call, result: { amount: 19.99 } })
  })
  const broken = JSON.parse(readFileSync(s.path!, 'utf8'))
  broken.turns[0].tool_results[0].name = 'lookup_order' // a key the format does not have
  mkdirSync('out', { recursive: true })
  writeFileSync('out/broken.trace.json', JSON.stringify(broken))

  expect(() => loadTrace('out/broken.trace.json')).toThrow(TraceFormatError)
  expect(() => loadTrace('out/broken.trace.json')).toThrow('at turns[0].tool_results[0]: unexpected key "name"')
  expect(() => loadGolden('refund-agent', { traceDir: 'out' })).toThrow(TraceNotFoundError)
})
