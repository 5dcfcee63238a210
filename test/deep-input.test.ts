/**
 * Values nested 100,000 levels deep, against every library reader: a file
 * is refused when read (TraceFormatError naming it), an in-memory trace
 * built by hand at the public entry points (the same error, naming
 * `<value>`), never with a stack overflow; 1,000 levels, the most a file may
 * nest, go through every one of them.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatStackTrace, loadTrace, TraceFormatError, type Trace } from '../src/entries/index.js'
import { redactForDisk, saveTrace, validateTrace } from '../src/entries/files.js'
import { matchGolden } from '../src/entries/golden.js'
import { diffTraces } from '../src/entries/diff.js'
import { toOtlp } from '../src/entries/otel.js'
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

/** What `fn` throws (undefined when it returns): to tell a TraceFormatError from a stack overflow. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  return undefined
}

describe('a trace built in memory, 100,000 levels deep', () => {
  const deep = deepTrace('deep')
  const shallow = deepTrace('deep', 3)
  const REFUSED = `<value> is not a valid reagent-flow trace: at turns[0].tool_results[0].result[0][0][0]: ${DETAIL} (rule: depth). Fix or delete the file, or record it again; the format is described by reagent-flow/schema.json.`

  it.each([
    ['diffTraces, as expected', () => diffTraces(deep, shallow)],
    ['diffTraces, as actual', () => diffTraces(shallow, deep)],
    ['diffTraces in unordered mode with subset arguments', () => diffTraces(shallow, deep, { mode: 'unordered', args: 'subset' })],
    ['matchGolden', () => matchGolden(deep, { traceDir: tempDir(), update: 'all' })],
    ['saveTrace', () => saveTrace(deep, { traceDir: tempDir() })],
    ['saveTrace of a golden', () => saveTrace(deep, { traceDir: tempDir(), golden: true })],
    ['redactForDisk', () => redactForDisk(deep)],
    ['redactForDisk with redact: false', () => redactForDisk(deep, false)],
    ['toOtlp', () => toOtlp({ trace: deep, children: [] }, { includeContent: true })],
    ['toOtlp, as a child run', () => toOtlp({ trace: shallow, children: [{ trace: deep, children: [] }] })],
  ])('is refused by %s with the TraceFormatError the reader gives, not a RangeError', (_, call) => {
    const error = thrownBy(call)
    expect(error).toBeInstanceOf(TraceFormatError)
    expect((error as TraceFormatError).message).toBe(REFUSED)
    expect(error).toEqual(new TraceFormatError('<value>', 'turns[0].tool_results[0].result[0][0][0]', 'depth', DETAIL))
  })

  it('is refused by redactForDisk as a bare value too, the path cut after 8 segments', () => {
    expect(thrownBy(() => redactForDisk(deepValue(100_000, 'bottom')))).toEqual(new TraceFormatError('<value>', '[0][0][0][0][0][0][0][0]', 'depth', DETAIL))
  })

  it('is rendered by formatStackTrace, its values cut short', () => {
    const text = formatStackTrace(deep, { color: false })
    expect(text).toContain('fetch({"q":"x"})')
    expect(text).toContain('[[[[[[[[')
  })
})

describe('a trace built in memory 1,000 levels deep, the most the reader accepts', () => {
  // The tool result sits 5 levels down; 995 more make 1,000.
  const DEPTH = 995
  const expected = deepTrace('edge', DEPTH)
  const other = JSON.parse(deepTraceText('edge', { depth: DEPTH }).replace('"bottom"', '"changed"')) as Trace
  const leafPath = `turns[0].tool_results[0].result${'[0]'.repeat(DEPTH)}`

  it('is compared by diffTraces down to the leaf that differs', () => {
    expect(diffTraces(expected, deepTrace('edge', DEPTH)).equal).toBe(true)
    const diff = diffTraces(expected, other)
    expect(diff.changes.map((change) => [change.kind, change.path, change.expected, change.actual])).toEqual([['changed', leafPath, 'bottom', 'changed']])
    expect(diffTraces(expected, other, { mode: 'unordered', args: 'subset' }).equal).toBe(false)
  })

  it('is written by saveTrace and read back by loadTrace as it was', () => {
    const traceDir = tempDir()
    const path = saveTrace(expected, { traceDir })
    expect(loadTrace(path)).toEqual(expected)
  })

  it('is written as a golden by matchGolden, then matched against it, and a change fails it', () => {
    const traceDir = tempDir()
    expect(matchGolden(expected, { traceDir, update: 'all' }).outcome).toBe('written')
    expect(matchGolden(deepTrace('edge', DEPTH), { traceDir, update: 'none' }).outcome).toBe('matched')
    const failed = matchGolden(other, { traceDir, update: 'none' })
    expect(failed.outcome).toBe('failed')
    expect(failed.diff!.changes.map((change) => change.path)).toEqual([leafPath])
  })

  it('is redacted by redactForDisk down to its deepest value', () => {
    const trace = JSON.parse(deepTraceText('edge', { depth: DEPTH - 1 }).replace('"bottom"', '{"password":"hunter2"}')) as Trace
    const text = JSON.stringify(redactForDisk(trace))
    expect(text).toContain('{"password":"[REDACTED]"}')
    expect(text).not.toContain('hunter2')
  })

  it('is exported by toOtlp, its tool result in the span', () => {
    const request = toOtlp({ trace: expected, children: [] }, { includeContent: true })
    const spans = request.resourceSpans[0]!.scopeSpans?.[0]?.spans ?? []
    const texts = spans
      .flatMap((span) => span.attributes ?? [])
      .flatMap(({ value }) => (value?.stringValue?.includes('bottom') === true ? [value.stringValue] : []))
    expect(texts).toEqual([`${'['.repeat(DEPTH)}"bottom"${']'.repeat(DEPTH)}`])
  })
})
