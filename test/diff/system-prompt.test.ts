import { describe, expect, it } from 'vitest'
import { systemPromptOf } from '../../src/diff/system-prompt.js'
import { diffTraces, formatDiff } from '../../src/entries/diff.js'
import { Session, type Message } from '../../src/entries/index.js'

function traceWith(messages: Message[] | undefined, model = 'gpt-4o') {
  const s = new Session('agent', { save: false })
  s.logLlmCall({ responseText: 'Hello.', model, ...(messages === undefined ? {} : { messages }) })
  s.logLlmCall({ responseText: 'Bye.', model, ...(messages === undefined ? {} : { messages: [...messages, { role: 'user', content: 'bye' }] }) })
  return s.trace
}

describe('systemPromptOf()', () => {
  it('reads the system prompt as each adapter records it', () => {
    // OpenAI chat messages as sent, LangChain's SystemMessage, the AI SDK's system prompt, the Responses API's instructions.
    expect(
      systemPromptOf([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ]),
    ).toBe('Be brief.')
    // OpenAI's developer messages (o-series and newer models).
    expect(systemPromptOf([{ role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] }])).toBe('Be brief.')
    // Anthropic's `system` as text blocks (cache_control is not part of the prompt).
    expect(
      systemPromptOf([
        {
          role: 'system',
          content: [
            { type: 'text', text: 'You are ACME support.', cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'Be brief.' },
          ],
        },
        { role: 'user', content: 'hi' },
      ]),
    ).toBe('You are ACME support.\nBe brief.')
    // Several system messages, in order.
    expect(
      systemPromptOf([
        { role: 'system', content: 'A.' },
        { role: 'user', content: 'hi' },
        { role: 'system', content: 'B.' },
      ]),
    ).toBe('A.\n\nB.')
  })

  it('is empty for messages without one, and null when the messages were not recorded', () => {
    expect(systemPromptOf([{ role: 'user', content: 'hi' }])).toBe('')
    expect(systemPromptOf(null)).toBe(null)
    expect(systemPromptOf(undefined)).toBe(null)
  })
})

describe('diffTraces() on what a call was given', () => {
  it('reports a changed system prompt or model once, at the first turn it appears in', () => {
    const before = traceWith([{ role: 'system', content: 'Be brief.' }], 'gpt-4o-mini')
    const after = traceWith([{ role: 'developer', content: 'Be thorough.' }], 'gpt-4o')
    expect(formatDiff(diffTraces(before, after), { color: false })).toBe(
      [
        '2 differences (strict) · - expected: 2 turns · + actual: 2 turns',
        '',
        'Turn 0 (expected) ↔ Turn 0 (actual)',
        '  ~ model: "gpt-4o-mini" → "gpt-4o"',
        '  ~ system_prompt: "Be brief." → "Be thorough."',
      ].join('\n'),
    )
    expect(diffTraces(before, after, { mode: 'superset' }).changes.map((change) => change.subject)).toEqual(['model', 'system_prompt'])
  })

  it('compares neither where one side did not record it, nor the other messages', () => {
    const recorded = traceWith([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ])
    expect(diffTraces(traceWith(undefined), recorded).equal).toBe(true)
    expect(
      diffTraces(
        recorded,
        traceWith([
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hello there' },
        ]),
      ).equal,
    ).toBe(true)
  })

  it('leaves them out for ignore entries and JSON paths', () => {
    const before = traceWith([{ role: 'system', content: 'Be brief.' }], 'gpt-4o-mini')
    const after = traceWith([{ role: 'system', content: 'Be thorough.' }], 'gpt-4o')
    expect(diffTraces(before, after, { ignore: ['model', 'system_prompt'] }).equal).toBe(true)
    expect(diffTraces(before, after, { ignore: ['turns[*].llm_call.model', 'turns[*].llm_call.messages'] }).equal).toBe(true)
    expect(diffTraces(before, after, { ignore: ['model'] }).changes.map((change) => change.subject)).toEqual(['system_prompt'])
  })
})
