import { describe, expect, it } from 'vitest'
import { assertFlow } from '../../src/entries/index.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'

// search, then two parallel fetches, a text-only turn, then summarize.
const trace = buildTrace('research', [
  { calls: [{ name: 'search' }] },
  { calls: [{ name: 'fetch' }, { name: 'fetch' }] },
  { text: 'Reading.' },
  { calls: [{ name: 'summarize' }] },
])

describe('assertFlow()', () => {
  it('matches the flat sequence of tool names exactly, across turns and parallel calls', () => {
    expect(() => assertFlow(trace, ['search', 'fetch', 'fetch', 'summarize'])).not.toThrow()
  })

  it("lets '...' stand for any run of calls, also none", () => {
    for (const pattern of [
      ['search', '...', 'summarize'],
      ['...', 'fetch', '...'],
      ['search', '...', 'fetch', 'fetch', '...', 'summarize'],
      ['...', 'summarize'],
      ['search', '...'],
      ['...', '...', 'search', '...', '...'],
    ]) {
      expect(() => assertFlow(trace, pattern), pattern.join(' ')).not.toThrow()
    }
  })

  it("says when the calls hold the pattern's names in order with others around them, and the pattern that passes", () => {
    const error = failureOf(() => assertFlow(trace, ['search', 'summarize']))
    expect(error.message).toContain(
      `PROBABLE CAUSE: the calls include ["search", "summarize"] in this order, with other calls around them; a pattern is anchored at both ends and '...' is any run of calls: [..., "search", ..., "summarize", ...] passes`,
    )
    expect(() => assertFlow(trace, ['...', 'search', '...', 'summarize', '...'])).not.toThrow()
    // Out of order: no such hint.
    expect(failureOf(() => assertFlow(trace, ['summarize', 'search'])).message).not.toContain('in this order')
  })

  it("passes for an empty or all-'...' pattern", () => {
    expect(() => assertFlow(trace, [])).not.toThrow()
    expect(() => assertFlow(trace, ['...', '...'])).not.toThrow()
    expect(() => assertFlow(buildTrace('empty', []), [])).not.toThrow()
  })

  it('fails at the first anchored mismatch, with the pattern and the actual names as a diff', () => {
    const error = failureOf(() => assertFlow(trace, ['search', 'summarize', '...']))
    expect(error.assertion).toBe(
      'Flow mismatch: expected "summarize" at position 1, got "fetch". Pattern: ["search", "summarize", ...], actual: ["search", "fetch", "fetch", "summarize"]',
    )
    expect(error.expected).toEqual(['search', 'summarize', '...'])
    expect(error.actual).toEqual(['search', 'fetch', 'fetch', 'summarize'])
  })

  it('fails when the calls end before the pattern', () => {
    expect(failureOf(() => assertFlow(trace, ['search', 'fetch', 'fetch', 'summarize', 'reply'])).assertion).toBe(
      'Flow mismatch: expected "reply" at position 4, got <end>. Pattern: ["search", "fetch", "fetch", "summarize", "reply"], actual: ["search", "fetch", "fetch", "summarize"]',
    )
  })

  it('fails when a segment after a gap is not found', () => {
    const error = failureOf(() => assertFlow(trace, ['search', '...', 'summarize', 'fetch']))
    expect(error.assertion).toBe(
      'Flow mismatch: could not find ["summarize", "fetch"] after position 1. Pattern: ["search", ..., "summarize", "fetch"], actual: ["search", "fetch", "fetch", "summarize"]',
    )
  })

  it('fails on trailing calls when the pattern is anchored at the end', () => {
    expect(failureOf(() => assertFlow(trace, ['search', 'fetch'])).assertion).toBe(
      'Flow mismatch: unexpected trailing calls ["fetch", "summarize"]. Pattern: ["search", "fetch"], actual: ["search", "fetch", "fetch", "summarize"]',
    )
  })

  it('points at pattern names that were never called, with the likely intended one', () => {
    const error = failureOf(() => assertFlow(trace, ['search', '...', 'sumarize']))
    expect(error.message).toContain('PROBABLE CAUSE: never called at all: "sumarize" (did you mean summarize?)')
  })

  it('rejects a pattern item that is not a string, naming its index', () => {
    expect(() => assertFlow(trace, ['search', 42 as unknown as string])).toThrow(
      new TypeError("assertFlow(): pattern[1] must be a tool name string or '...', got 42 (number)."),
    )
    expect(() => assertFlow(trace, 'search' as never)).toThrow(new TypeError(`assertFlow(): pattern must be an array of tool names and '...', got "search".`))
  })
})
