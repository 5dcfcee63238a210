/**
 * The bytes of trace files, produced in pieces: exactly what one
 * JSON.stringify of the whole trace would write, however the turns are
 * batched; golden files sorted with times as floats; no marker a recorded
 * string can forge; `__proto__` kept as data.
 */
import { describe, expect, it } from 'vitest'
import { goldenFileChunks, joinChunks, runFileChunks } from '../../src/trace/trace-text.js'
import { normalizeTrace, stringifyTraceStable } from '../../src/trace/normalize.js'
import type { Trace } from '../../src/trace/types.js'
import { buildTrace } from '../helpers/trace-builder.js'

function traceOf(turnCount: number, outputChars = 10): Trace {
  return buildTrace(
    'pieces',
    Array.from({ length: turnCount }, (_, i) => ({ calls: [{ name: 'fetch', args: { page: i }, result: 'y'.repeat(outputChars) }], text: `turn ${i}` })),
    { metadata: { goal: 'read every page' } },
  )
}

describe('a run file written in pieces', () => {
  it.each([0, 1, 255, 256, 257, 5_000])('is byte for byte JSON.stringify(trace, null, 2) with %i turns', (count) => {
    const trace = traceOf(count)
    expect(joinChunks(runFileChunks(trace))).toBe(`${JSON.stringify(trace, null, 2)}\n`)
  })

  it('is the same with turns of a megabyte each, in smaller batches', () => {
    const trace = traceOf(12, 1 << 20)
    const chunks = [...runFileChunks(trace)]
    expect(chunks.length).toBeGreaterThan(6)
    expect(chunks.join('')).toBe(`${JSON.stringify(trace, null, 2)}\n`)
  })
})

describe('a golden file written in pieces', () => {
  it('is the sorted, float-timed text of the whole normal form', () => {
    const normal = normalizeTrace(traceOf(600))
    expect(joinChunks(goldenFileChunks(normal))).toBe(stringifyTraceStable(normal))
    expect(joinChunks(goldenFileChunks(normal))).toContain('"started_at": 0.0,')
  })

  it('writes a string that looks like an old float marker as that string', () => {
    const trace = buildTrace('forged', [{ calls: [{ name: 'echo', args: { value: '\u0000float:42' }, result: '\u0000float:7' }] }])
    const text = joinChunks(goldenFileChunks(normalizeTrace(trace)))
    expect(text).toContain('"value": "\\u0000float:42"')
    expect(text).toContain('"result": "\\u0000float:7"')
    expect(JSON.parse(text).turns[0].llm_call.tool_calls[0].arguments.value).toBe('\u0000float:42')
  })

  it('keeps a __proto__ key as data', () => {
    const args = JSON.parse('{"__proto__": {"admin": true}, "id": 1}') as Record<string, unknown>
    const trace = buildTrace('proto', [{ calls: [{ name: 'update', args: args as never }] }])
    const golden = JSON.parse(joinChunks(goldenFileChunks(normalizeTrace(trace))))
    const run = JSON.parse(joinChunks(runFileChunks(trace)))
    for (const written of [golden, run]) {
      const kept = written.turns[0].llm_call.tool_calls[0].arguments
      expect(Object.keys(kept)).toEqual(['__proto__', 'id'])
      expect(Object.getPrototypeOf(kept)).toBe(Object.prototype)
    }
  })
})
