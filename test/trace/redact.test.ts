import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { session } from '../../src/index.js'
import { redactValue, resolveRedactPolicy } from '../../src/trace/redact.js'
import { tempDir } from '../helpers/temp-dir.js'

const defaults = resolveRedactPolicy(undefined)!

describe('default redaction', () => {
  it.each([
    ['an OpenAI key', 'key is sk-proj-abcdefghijklmnop1234', 'key is [REDACTED]'],
    ['an Anthropic key', 'sk-ant-api03-AAAAAAAAAAAAAAAAAAAA-BBBB', '[REDACTED]'],
    ['a bearer token', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.x', 'Authorization: Bearer [REDACTED]'],
    ['an AWS key id', 'AKIAIOSFODNN7EXAMPLE', '[REDACTED]'],
    ['a GitHub token', `ghp_${'a'.repeat(36)}`, '[REDACTED]'],
    ['ordinary text', 'Refund order 42 for $19.99', 'Refund order 42 for $19.99'],
  ])('handles %s inside strings', (_, input, output) => {
    expect(redactValue({ text: input }, defaults)).toEqual({ text: output })
  })

  it.each(['Authorization', 'api_key', 'apiKey', 'X-API-Key', 'password', 'client_secret', 'access_token'])(
    'replaces the value of a %s key at any depth',
    (key) => {
      expect(redactValue({ request: { headers: { [key]: { any: 'value' } } } }, defaults)).toEqual({
        request: { headers: { [key]: '[REDACTED]' } },
      })
    },
  )

  it('leaves token counts alone', () => {
    const usage = { token_usage: { input_tokens: 1, output_tokens: 2 } }
    expect(redactValue(usage, defaults)).toBe(usage)
  })

  it('never modifies its input', () => {
    const input = { nested: { password: 'hunter2' }, other: { a: 1 } }
    const out = redactValue(input, defaults)
    expect(input.nested.password).toBe('hunter2')
    expect(out.other).toBe(input.other)
  })
})

describe('resolveRedactPolicy()', () => {
  it('adds key names and key patterns to the defaults', () => {
    const policy = resolveRedactPolicy(['ssn', /^x-internal-/i])!
    expect(redactValue({ SSN: '123', 'x-internal-id': 'a', password: 'p', name: 'Ada' }, policy)).toEqual({
      SSN: '[REDACTED]',
      'x-internal-id': '[REDACTED]',
      password: '[REDACTED]',
      name: 'Ada',
    })
  })

  it('takes value patterns and can drop the defaults', () => {
    const policy = resolveRedactPolicy({ values: [/\d{3}-\d{2}-\d{4}/], defaults: false })!
    expect(redactValue({ note: 'ssn 123-45-6789', password: 'kept' }, policy)).toEqual({ note: 'ssn [REDACTED]', password: 'kept' })
  })

  it('is off with false', () => {
    expect(resolveRedactPolicy(false)).toBeUndefined()
  })
})

describe('session redaction', () => {
  it('redacts the written file by default and keeps the in-memory trace untouched', async () => {
    const traceDir = tempDir()
    const s = await session('secrets', { traceDir }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'call_api', arguments: { api_key: 'sk-live-123', path: '/v1/x' } }] })
    })
    expect(s.trace.turns[0]!.llm_call.tool_calls[0]!.arguments.api_key).toBe('sk-live-123')
    const written = JSON.parse(readFileSync(s.path!, 'utf8'))
    expect(written.turns[0].llm_call.tool_calls[0].arguments).toEqual({ api_key: '[REDACTED]', path: '/v1/x' })
  })

  it('writes secrets as they are with redact: false', async () => {
    const traceDir = tempDir()
    const s = await session('raw', { traceDir, redact: false }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'call_api', arguments: { api_key: 'sk-live-123' } }] })
    })
    expect(readFileSync(s.path!, 'utf8')).toContain('"api_key": "sk-live-123"')
  })

  it('redacts golden files too', async () => {
    const traceDir = tempDir()
    const s = await session('golden-secrets', { traceDir, golden: true, metadata: { token: 'Bearer abcdefghijkl' } }, () => undefined)
    expect(JSON.parse(readFileSync(s.path!, 'utf8')).metadata).toEqual({ token: 'Bearer [REDACTED]' })
  })
})
