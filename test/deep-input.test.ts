/**
 * Values nested 100,000 levels deep, against every library reader: a file
 * is refused when read (TraceFormatError naming it); an in-memory trace
 * built by hand is compared, diffed, rendered and redacted without
 * overflowing the stack (past a depth, a value is compared as a whole).
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatStackTrace, loadTrace, TraceFormatError, type Trace } from '../src/entries/index.js'
import { validateTrace } from '../src/entries/files.js'
import { matchGolden } from '../src/entries/golden.js'
import { diffTraces, formatDiff } from '../src/entries/diff.js'
import { renderGolden } from '../src/golden/index.js'
import type { JsonValue } from '../src/trace/types.js'
import { deepTrace, deepTraceText, deepValue, writeDeepTrace } from './helpers/deep-trace.js'
import { tempDir } from './helpers/temp-dir.js'

const DETAIL = 'nests more than 1,000 levels deep; reagent-flow reads at most 1,000'

describe('reading a trace nested 100,000 levels deep', () => {
  it('is a TraceFormatError naming the file, the path and the rule', () => {
    const file = join(tempDir(), 'deep.trace.json')
    writeDeepTrace(file, 'deep')
    expect(() => loadTrace(file)).toThrow(new TraceFormatError(file, 'turns[0].tool_results[0].result[0][0][0]', 'depth', DETAIL))
  })

  it('is a TraceFormatError for an in-memory value too', () => {
    expect(() => validateTrace(JSON.parse(deepTraceText('deep')))).toThrow(
      new TraceFormatError('<value>', 'turns[0].tool_results[0].result[0][0][0]', 'depth', DETAIL),
    )
  })

  it('accepts 1,000 levels, the most reagent-flow 0.5 can write', () => {
    // The tool result sits 5 levels down; 995 more make 1,000.
    expect(validateTrace(JSON.parse(deepTraceText('ok', { depth: 995 }))).name).toBe('ok')
    expect(() => validateTrace(JSON.parse(deepTraceText('no', { depth: 996 })))).toThrow(TraceFormatError)
  })

  it('makes matchGolden fail with the golden file named, not a stack overflow', () => {
    const traceDir = tempDir()
    const golden = join(traceDir, 'golden', 'refund.trace.json')
    writeDeepTrace(golden, 'refund')
    const trace = deepTrace('refund', 3)
    expect(() => matchGolden(trace, { traceDir, update: 'none' })).toThrow(
      new TraceFormatError(golden, 'turns[0].tool_results[0].result[0][0][0]', 'depth', DETAIL),
    )
  })
})

describe('a trace built in memory, 100,000 levels deep', () => {
  const expected = deepTrace('deep')
  const same = deepTrace('deep')
  const other = JSON.parse(deepTraceText('deep').replace('"bottom"', '"changed"')) as Trace

  it('is compared by diffTraces: equal, and different at its top as one changed value', () => {
    expect(diffTraces(expected, same).equal).toBe(true)
    const diff = diffTraces(expected, other)
    expect(diff.changes).toHaveLength(1)
    expect(diff.changes[0]!.path).toBe(`turns[0].tool_results[0].result${'[0]'.repeat(256)}`)
    expect(formatDiff(diff, { color: false })).toContain('result')
  })

  it('is compared in unordered mode and with subset arguments', () => {
    const withArgs = (trace: Trace, args: JsonValue): Trace => {
      const copy = structuredClone({ ...trace, turns: [] }) as Trace
      copy.turns = [
        {
          ...trace.turns[0]!,
          llm_call: { ...trace.turns[0]!.llm_call, tool_calls: [{ ...trace.turns[0]!.llm_call.tool_calls[0]!, arguments: { deep: args } }] },
        },
      ]
      return copy
    }
    const a = withArgs(expected, deepValue(100_000, 1))
    const b = withArgs(expected, deepValue(100_000, 1))
    expect(diffTraces(a, b, { mode: 'unordered' }).equal).toBe(true)
    expect(diffTraces(a, withArgs(expected, deepValue(100_000, 2)), { mode: 'unordered', args: 'subset' }).equal).toBe(false)
  })

  it('is rendered by formatStackTrace, its values cut short', () => {
    const text = formatStackTrace(expected, { color: false })
    expect(text).toContain('fetch({"q":"x"})')
    expect(text).toContain('[[[[[[[[')
  })

  it('is redacted and compared with its golden in normal form', () => {
    const traceDir = tempDir()
    const normal = renderGolden(expected).trace
    expect(diffTraces(normal, renderGolden(same).trace).equal).toBe(true)
    writeDeepTrace(join(traceDir, 'golden', 'shallow.trace.json'), 'shallow', { depth: 3 })
    const result = matchGolden({ ...expected, name: 'shallow' }, { traceDir, update: 'none' })
    expect(result.pass).toBe(false)
    expect(result.message).toContain('does not match its golden baseline')
  })
})
