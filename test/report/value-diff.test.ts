import { describe, expect, it } from 'vitest'
import { colors } from '../../src/report/colors.js'
import { showChange, showOneSide } from '../../src/report/value-diff.js'

const plain = colors(false)
const sentence = (i: number): string => `Sentence ${i} of the answer explains the refund policy.`
/** A model answer of 853 characters. */
const answer = Array.from({ length: 16 }, (_, i) => sentence(i)).join(' ')
const prompt = [
  'You are a support agent for ACME.',
  'Be polite.',
  'Never refund more than $50 without a manager.',
  'Always look up the order first.',
  'Answer in English.',
  'Sign as ACME Support.',
].join('\n')

describe('showChange()', () => {
  it('keeps two short values side by side', () => {
    expect(showChange('paris', 'rome', plain)).toEqual({ inline: '"paris" → "rome"' })
    expect(showChange({ a: 1 }, { a: 2 }, plain)).toEqual({ inline: '{"a":1} → {"a":2}' })
  })

  it('shows one changed word of a long answer with its context, the elided words counted, within 100 columns', () => {
    const changed = answer.replace('Sentence 8 of the answer explains the refund', 'Sentence 8 of the answer explains the return')
    expect(showChange(answer, changed, plain)).toEqual({
      lines: ['…(71 words)… policy. Sentence 8 of the answer explains the [-refund-]{+return+} policy. Sentence 9', 'of the answer explains the …(56 words)…'],
    })
  })

  it('shows every change of a long answer, however far apart', () => {
    const changed = answer.replace('Sentence 0 of', 'Sentence zero of').replace('Sentence 15 of the answer explains the refund policy.', 'Sentence 15.')
    expect(showChange(answer, changed, plain)).toEqual({
      lines: [
        'Sentence [-0-]{+zero+} of the answer explains the refund policy. Sentence …(119 words)… the answer',
        'explains the refund policy. Sentence 15[- of the answer explains the refund policy-].',
      ],
    })
  })

  it('diffs a multi-line string line by line, a line changed in place word by word', () => {
    const changed = `${prompt.replace('Be polite.', 'Be brief and polite.').replace('Answer in English.', 'Answer in the language of the customer.')}\nNever share internal notes.`
    expect(showChange(prompt, changed, plain)).toEqual({
      lines: [
        '  You are a support agent for ACME.',
        '~ Be {+brief and +}polite.',
        '  Never refund more than $50 without a manager.',
        '  Always look up the order first.',
        '~ Answer in [-English-]{+the language of the customer+}.',
        '  Sign as ACME Support.',
        '+ Never share internal notes.',
      ],
    })
  })

  it('elides unchanged lines far from a change, saying how many', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `rule ${i}`)
    const changed = lines.map((line, i) => (i === 6 ? 'rule six' : line))
    expect(showChange(lines.join('\n'), changed.join('\n'), plain)).toEqual({
      lines: ['  …(4 lines)…', '  rule 4', '  rule 5', '~ rule [-6-]{+six+}', '  rule 7', '  rule 8', '  …(3 lines)…'],
    })
  })

  it('diffs a long JSON value as pretty JSON, line by line', () => {
    const items = [
      { id: 1, name: 'first item' },
      { id: 2, name: 'second item' },
      { id: 3, name: 'third item' },
    ]
    expect(showChange(items, [items[0], items[2]], plain)).toEqual({
      lines: [
        '  …(4 lines)…',
        '    },',
        '    {',
        '-     "id": 2,',
        '-     "name": "second item"',
        '-   },',
        '-   {',
        '      "id": 3,',
        '      "name": "third item"',
        '  …(2 lines)…',
      ],
    })
  })

  it('colours removed words red and struck through, added ones green and underlined, elisions dim, without markers', () => {
    const changed = answer.replace('explains the refund policy. Sentence 9', 'explains the return policy. Sentence 9')
    const { lines } = showChange(answer, changed, colors(true)) as { lines: string[] }
    expect(lines[0]).toBe(
      '\u001b[2m…(71 words)…\u001b[22m policy. Sentence 8 of the answer explains the \u001b[31m\u001b[9mrefund\u001b[29m\u001b[39m\u001b[32m\u001b[4mreturn\u001b[24m\u001b[39m policy. Sentence 9 of the',
    )
  })
})

describe('showChange() on two unrelated long texts', () => {
  it('shows them as one replaced middle between their common start and end, hiding no word', () => {
    const words = (tag: string): string => Array.from({ length: 1500 }, (_, i) => `${tag}${i}`).join(' ')
    const { lines } = showChange(`Dear customer, ${words('a')} Regards.`, `Dear customer, ${words('b')} Regards.`, plain) as { lines: string[] }
    const text = lines.join(' ')
    expect(text.startsWith('Dear customer, [-a0 a1 a2')).toBe(true)
    expect(text.endsWith('b1498 b1499+} Regards.')).toBe(true)
    expect([text.split('[-').length, text.split('{+').length]).toEqual([2, 2])
    const shown = new Set(text.replace(/\[-|-\]|\{\+|\+\}/g, ' ').split(/\s+/))
    expect([...words('a').split(' '), ...words('b').split(' ')].filter((word) => !shown.has(word))).toEqual([])
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100)
  })
})

describe('showOneSide()', () => {
  it('shows a long added or removed string in full, a line per line', () => {
    expect(showOneSide(prompt, plain)).toEqual({ lines: prompt.split('\n') })
    expect(showOneSide('short', plain)).toEqual({ inline: '"short"' })
  })
})
