import { describe, expect, it } from 'vitest'
import { outcomeOf, promptMessages } from '../../../adapters/ai-sdk/prompt.js'
import { tokenUsageOf } from '../../../adapters/ai-sdk/part-fold.js'
import { Recorder } from '../../../src/session/recorder.js'

/** A tool output as the trace records it: `{ error }` when it is one, else `{ result }`. */
function recorded(output: Parameters<typeof outcomeOf>[0]): { result: unknown } | { error: string } {
  const recorder = new Recorder('01JD0000000000000000ABCDEF', () => undefined)
  const [callId] = recorder.logLlmCall({ toolCalls: [{ name: 'tool' }] })
  const { result, error } = recorder.logResultOf(callId!, () => outcomeOf(output))!
  return error === null ? { result } : { error }
}

describe('prompt messages', () => {
  it('keeps roles and parts, turns a lone text part into its text, and replaces file contents by their size', () => {
    expect(
      promptMessages([
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is on this receipt?', providerOptions: { openai: { detail: 'high' } } },
            { type: 'file', mediaType: 'image/png', data: new Uint8Array(2048) },
            { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0xLjQK', filename: 'r.pdf' },
            { type: 'file', mediaType: 'image/jpeg', data: new URL('https://example.com/r.jpg') },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Look closely.' },
            { type: 'text', text: 'A coffee.' },
          ],
        },
      ]),
    ).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is on this receipt?' },
          { type: 'file', mediaType: 'image/png', data: '[2048 bytes of file data]' },
          { type: 'file', mediaType: 'application/pdf', data: '[9 bytes of file data]', filename: 'r.pdf' },
          { type: 'file', mediaType: 'image/jpeg', data: 'https://example.com/r.jpg' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Look closely.' },
          { type: 'text', text: 'A coffee.' },
        ],
      },
    ])
  })

  it('reads every kind of tool output as a result or an error', () => {
    expect(recorded({ type: 'text', value: 'ok' })).toEqual({ result: 'ok' })
    expect(recorded({ type: 'json', value: { n: 1 } })).toEqual({ result: { n: 1 } })
    expect(recorded({ type: 'error-text', value: 'boom' })).toEqual({ error: 'boom' })
    expect(recorded({ type: 'error-json', value: { code: 500 } })).toEqual({ error: '{"code":500}' })
    expect(recorded({ type: 'execution-denied' })).toEqual({ error: 'execution denied' })
    expect(recorded({ type: 'execution-denied', reason: 'user said no' })).toEqual({ error: 'execution denied: user said no' })
    expect(
      recorded({
        type: 'content',
        value: [
          { type: 'text', text: 'chart:' },
          { type: 'image-data', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
        ],
      }),
    ).toEqual({
      result: [
        { type: 'text', text: 'chart:' },
        { type: 'image-data', data: '[9 bytes of file data]', mediaType: 'image/png' },
      ],
    })
  })
})

describe('token usage', () => {
  it('normalises V3 usage and keeps only the counts the provider reported', () => {
    expect(
      tokenUsageOf({
        inputTokens: { total: 300, noCache: 100, cacheRead: 150, cacheWrite: 50 },
        outputTokens: { total: 40, text: 10, reasoning: 30 },
      }),
    ).toEqual({
      input_tokens: 300,
      output_tokens: 40,
      total_tokens: 340,
      input_tokens_details: { no_cache_tokens: 100, cache_read_tokens: 150, cache_write_tokens: 50 },
      output_tokens_details: { text_tokens: 10, reasoning_tokens: 30 },
    })
    expect(
      tokenUsageOf({
        inputTokens: { total: 7, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      }),
    ).toEqual({ input_tokens: 7 })
    expect(
      tokenUsageOf({
        inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      }),
    ).toBeNull()
  })
})
