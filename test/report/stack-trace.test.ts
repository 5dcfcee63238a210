import { afterEach, describe, expect, it, vi } from 'vitest'
import { formatStackTrace } from '../../src/entries/index.js'
import { buildTrace } from '../helpers/trace-builder.js'

afterEach(() => void vi.unstubAllEnvs())

const trace = buildTrace(
  'support-agent',
  [
    {
      calls: [
        { name: 'lookup_order', args: { order_id: '42' }, result: { status: 'delivered', amount: 19.99 }, ms: 120 },
        { name: 'fetch_invoice', args: { order_id: '42' }, error: 'TimeoutError: billing took 30s', ms: 30_000 },
      ],
      ms: 30_150,
      tokens: { input_tokens: 120, output_tokens: 18 },
    },
    { calls: [{ name: 'check_policy', args: { days: 3 }, noResult: true }], tokens: { input_tokens: 160, output_tokens: 12 } },
    {
      text: 'I could not find the invoice, so I cannot refund order 42 right now. Please try again later today.',
      tokens: { input_tokens: 200, output_tokens: 40 },
    },
  ],
  { parent_trace_id: 'trace-planner', status: 'failed', error: { name: 'RangeError', message: 'budget exceeded' } },
)
// A result that matched no call, kept by the recorder under unmatched_results.
trace.turns[1]!.tool_results.push({ call_id: 'stray_1', result: { sent: true }, error: null, duration_ms: 0 })
trace.turns[1]!.unmatched_results = [{ call_id: 'stray_1', name: 'notify' }]
trace.turns[1]!.llm_call.error = { name: 'APIError', message: '529 overloaded' }

describe('formatStackTrace()', () => {
  it('draws the header, each turn with its calls and results, the assertion and the probable cause', () => {
    expect(formatStackTrace(trace, { assertion: '"issue_refund" was never called (3 turns, 3 tool calls)', tool: 'issue_refund', color: false })).toBe(
      [
        'support-agent  failed · 3 turns · 3 tool calls (1 failed) · 550 tokens (480 in / 70 out) · 1.5s',
        '  child of trace-planner',
        '  ✗ Turn 0  30s  gpt-4o',
        '      LLM -> lookup_order({"order_id":"42"})',
        '        ✓ {"status":"delivered","amount":19.99}  120ms',
        '      LLM -> fetch_invoice({"order_id":"42"})',
        '        ✗ TimeoutError: billing took 30s  30s',
        '  ✗ Turn 1  0µs  gpt-4o',
        '      LLM error: APIError: 529 overloaded',
        '      LLM -> check_policy({"days":3})',
        '      ? notify result with no matching call: {"sent":true}',
        '  ✓ Turn 2  0µs  gpt-4o',
        '      LLM -> “I could not find the invoice, so I cannot refund order 42 right now. Please try…”',
        '  ✗ RangeError: budget exceeded',
        '',
        'ASSERTION FAILED: "issue_refund" was never called (3 turns, 3 tool calls)',
        'PROBABLE CAUSE: fetch_invoice({"order_id":"42"}) failed in turn 0: TimeoutError: billing took 30s',
        '                the LLM call of turn 1 failed: APIError: 529 overloaded',
        '                the run ended with RangeError: budget exceeded',
      ].join('\n'),
    )
  })

  it('draws the trace alone, with no assertion and no probable cause, when no assertion is given', () => {
    const text = formatStackTrace(trace, { color: false })
    expect(text.split('\n').slice(0, 2)).toEqual([
      'support-agent  failed · 3 turns · 3 tool calls (1 failed) · 550 tokens (480 in / 70 out) · 1.5s',
      '  child of trace-planner',
    ])
    expect(text.endsWith('\n  ✗ RangeError: budget exceeded')).toBe(true)
    expect(text).not.toContain('ASSERTION FAILED')
    expect(text).not.toContain('PROBABLE CAUSE')
  })

  it("names an error shown in full elsewhere (the test's own) instead of printing it again, and prints the others", () => {
    const text = formatStackTrace(trace, { color: false, shownElsewhere: ['budget exceeded'] })
    expect(text).toContain('\n      LLM error: APIError: 529 overloaded\n')
    expect(text.endsWith("\n  ✗ RangeError (the test's error, shown in full below)")).toBe(true)
    const both = formatStackTrace(trace, { color: false, shownElsewhere: ['529 overloaded', 'budget exceeded'] })
    expect(both).toContain("\n      LLM error: APIError (the test's error, shown in full below)\n")
  })

  it("puts the assertion's own findings first, then what the trace says, then background facts, three at most", () => {
    const text = formatStackTrace(trace, { assertion: 'x', causes: ['a typo'], facts: ['what ran instead'], color: false })
    expect(text.split('\n').slice(-3)).toEqual([
      'PROBABLE CAUSE: a typo',
      '                fetch_invoice({"order_id":"42"}) failed in turn 0: TimeoutError: billing took 30s',
      '                the LLM call of turn 1 failed: APIError: 529 overloaded',
    ])
  })

  it("offers the named tool's last output when nothing failed, and says so when nothing points anywhere", () => {
    const calm = buildTrace('calm', [{ calls: [{ name: 'check_policy', result: { eligible: false } }] }, { text: 'Not eligible.' }])
    expect(
      formatStackTrace(calm, { assertion: 'x', tool: 'check_policy', facts: ['the agent answered'], color: false })
        .split('\n')
        .slice(-2),
    ).toEqual(['PROBABLE CAUSE: check_policy last returned {"eligible":false} (turn 0)', '                the agent answered'])
    expect(formatStackTrace(calm, { assertion: 'x', color: false }).split('\n').at(-1)).toBe(
      'PROBABLE CAUSE: nothing in the trace points to one: no tool error, no failed LLM call',
    )
  })

  it('cuts long arguments and results to one line', () => {
    const long = buildTrace('long', [{ calls: [{ name: 'write', args: { text: 'x'.repeat(200) }, result: { echo: 'y'.repeat(200) } }] }])
    const lines = formatStackTrace(long, { assertion: 'x', color: false }).split('\n')
    expect(lines[2]).toBe(`      LLM -> write({"text":"${'x'.repeat(90)}…)`)
    expect(lines[3]).toBe(`        ✓ {"echo":"${'y'.repeat(70)}…`)
  })

  it('shows the first and last turns of a long trace, and the turns that matter in between', () => {
    const turns = Array.from({ length: 100 }, (_, i) => ({
      calls: [{ name: i === 50 ? 'charge_card' : 'poll', result: 'pending', ...(i === 60 ? { error: 'Boom' } : {}) }],
    }))
    const lines = formatStackTrace(buildTrace('long-run', turns), { assertion: 'x', tool: 'charge_card', color: false }).split('\n')
    const turnLines = lines.filter((line) => /^ {2}[✓✗] Turn|^ {2}…/.test(line)).map((line) => line.replace(/ {2}0µs {2}gpt-4o$/, ''))
    expect(turnLines).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `  ✓ Turn ${i}`),
      '  … 40 turns not shown (turns 10–49)',
      '  ✓ Turn 50',
      '  … 9 turns not shown (turns 51–59)',
      '  ✗ Turn 60',
      '  … 19 turns not shown (turns 61–79)',
      ...Array.from({ length: 20 }, (_, i) => `  ✓ Turn ${80 + i}`),
    ])
  })

  it('colours only when asked, and by default follows NO_COLOR and FORCE_COLOR', () => {
    expect(formatStackTrace(trace, { assertion: 'x', color: true })).toContain('\u001b[')
    expect(formatStackTrace(trace, { assertion: 'x', color: false })).not.toContain('\u001b[')
    vi.stubEnv('NO_COLOR', '1')
    vi.stubEnv('FORCE_COLOR', '1')
    expect(formatStackTrace(trace, { assertion: 'x' })).not.toContain('\u001b[')
    vi.stubEnv('NO_COLOR', '')
    expect(formatStackTrace(trace, { assertion: 'x' })).toContain('\u001b[')
  })

  it('highlights the tool the assertion is about', () => {
    const text = formatStackTrace(trace, { assertion: 'x', tool: 'check_policy', color: true })
    expect(text).toContain('\u001b[33m\u001b[1mcheck_policy\u001b[22m\u001b[39m')
    expect(text).toContain('\u001b[1mlookup_order\u001b[22m')
  })
})
