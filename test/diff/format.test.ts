import { describe, expect, it } from 'vitest'
import { diffTraces, formatDiff } from '../../src/entries/diff.js'
import { scriptTrace, type ScriptedTurn } from '../helpers/script-trace.js'

const script: ScriptedTurn[] = [
  ['lookup_order', { order_id: '42' }, { amount: 19.99, status: 'delivered' }],
  ['check_policy', { days_since_delivery: 3 }, { eligible: true }],
  {
    calls: [
      ['search', { q: 'paris', limit: 5 }, { hits: 3 }],
      ['weather', { city: 'paris' }, { c: 21 }],
    ],
  },
  'Refunded $19.99.',
]
const expected = scriptTrace(script)
const actual = scriptTrace([
  ['lookup_order', { order_id: '42' }, { amount: 19.99, status: 'delivered' }],
  ['search_kb', { q: 'refund policy' }, { hits: 2 }],
  { calls: [['search', { q: 'rome' }, { hits: 4 }], ['translate', { text: 'hi' }, 'ciao'], { name: 'weather', args: { city: 'paris' }, error: 'timeout' }] },
  'Refunded.',
])

describe('formatDiff()', () => {
  it('renders turn headers, -/+ turns and calls, and changed values side by side', () => {
    expect(formatDiff(diffTraces(expected, actual), { color: false })).toBe(
      [
        '9 differences (strict) · - expected: 4 turns · + actual: 4 turns',
        '',
        '- Turn 1 (expected)',
        '-   check_policy({"days_since_delivery":3})',
        '+ Turn 1 (actual)',
        '+   search_kb({"q":"refund policy"})',
        'Turn 2 (expected) ↔ Turn 2 (actual)',
        '  ~ search',
        '      q: "paris" → "rome"',
        '      - limit: 5',
        '      result.hits: 3 → 4',
        '  + translate({"text":"hi"})',
        '  ~ weather',
        '      result: {"c":21} → null',
        '      error: null → "timeout"',
        'Turn 3 (expected) ↔ Turn 3 (actual)',
        '  ~ response_text: "Refunded $19.99." → "Refunded."',
      ].join('\n'),
    )
  })

  it('groups the order-free modes by turn too, and leaves out what the mode allows', () => {
    expect(formatDiff(diffTraces(expected, actual, { mode: 'superset' }), { color: false })).toBe(
      [
        '7 differences (superset) · - expected: 4 turns · + actual: 4 turns',
        '',
        'Turn 1 (expected)',
        '  - check_policy({"days_since_delivery":3})',
        'Turn 2 (expected) ↔ Turn 2 (actual)',
        '  ~ search',
        '      q: "paris" → "rome"',
        '      - limit: 5',
        '      result.hits: 3 → 4',
        '  ~ weather',
        '      result: {"c":21} → null',
        '      error: null → "timeout"',
        'Turn 3 (expected) ↔ Turn 3 (actual)',
        '  ~ response_text: "Refunded $19.99." → "Refunded."',
      ].join('\n'),
    )
  })

  it('says so in one line when nothing differs', () => {
    expect(formatDiff(diffTraces(expected, scriptTrace(script)), { color: false })).toBe('No differences (strict) · expected: 4 turns · actual: 4 turns')
  })

  it('colours removals red, additions green and changes yellow when asked', () => {
    const text = formatDiff(diffTraces(expected, actual), { color: true })
    expect(text).toContain('\u001b[31m- Turn 1 (expected)\u001b[39m')
    expect(text).toContain('\u001b[32m+ Turn 1 (actual)\u001b[39m')
    expect(text).toContain('\u001b[33m~\u001b[39m \u001b[1msearch\u001b[22m')
  })
})
