import { describe, expect, it } from 'vitest'
import { loadTrace } from '../../src/entries/index.js'
import { colors } from '../../src/report/colors.js'
import { formatStackTrace } from '../../src/report/stack-trace.js'
import { formatTurnLines } from '../../src/report/summary.js'
import { formatDuration, oneLine } from '../../src/report/format-value.js'

const fixture = (name: string): string => new URL(`../../fixtures/reagent-flow-py-0.5/${name}`, import.meta.url).pathname

describe('a trace drawn alone (formatStackTrace without an assertion, as show and the demo print it)', () => {
  it('shows each turn with its calls, results and errors', () => {
    const text = formatStackTrace(loadTrace(fixture('parallel-search.trace.json')), { color: false })
    expect(text).toBe(
      [
        'parallel-search  completed · 2 turns · 2 tool calls (1 failed) · 184 tokens (140 in / 44 out) · 44µs',
        '  ✗ Turn 0  0µs  claude-sonnet-4',
        '      LLM -> search({"q":"weather paris"})',
        '        ✓ {"temp_c":18}',
        '      LLM -> search({"q":"weather rome"})',
        '        ✗ TimeoutError: upstream took 30s',
        '  ✓ Turn 1  0µs  claude-sonnet-4',
        '      LLM -> “Paris is 18C; Rome is unavailable.”',
      ].join('\n'),
    )
  })

  it('names the parent of a child trace', () => {
    expect(formatStackTrace(loadTrace(fixture('researcher.trace.json')), { color: false })).toContain('  child of d2ff446d-08a1-4e96-85cf-fcd13b3cd18b')
  })

  it('colours only when asked', () => {
    const trace = loadTrace(fixture('planner.trace.json'))
    expect(formatStackTrace(trace, { color: true })).toContain('\u001b[')
    expect(formatStackTrace(trace, { color: false })).not.toContain('\u001b[')
  })
})

describe('format helpers', () => {
  it('cuts long values to one line', () => {
    expect(oneLine({ text: 'x'.repeat(100) }, 20)).toBe('{"text":"xxxxxxxxxx…')
  })

  it('prints durations at a readable scale', () => {
    expect([0.085, 1.25, 12.4, 1500, 65_000].map(formatDuration)).toEqual(['85µs', '1.3ms', '12ms', '1.5s', '65s'])
  })
})

describe('formatTurnLines()', () => {
  it('keeps the ellipsis of a cut text answer', () => {
    const turn = loadTrace(fixture('researcher.trace.json')).turns[0]!
    turn.llm_call.response_text = `${'a'.repeat(120)}\n`
    expect(formatTurnLines(turn, colors(false)).at(-1)).toBe(`      “${'a'.repeat(99)}…”`)
  })
})
