// test/redaction-rules.test.ts
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { session } from 'reagent-flow'
import { redactForDisk } from 'reagent-flow/files'

test('your own rules add to the defaults, or replace them', () => {
  // Key names match by words, in longer keys too
  expect(redactForDisk({ customer_ssn: '123-45-6789', note: 'ok' }, ['ssn'])).toEqual({ customer_ssn: '[REDACTED]', note: 'ok' })
  // A RegExp is tested against the key as it is
  expect(redactForDisk({ 'x-trace-id': 'abc' }, [/^x-trace-/])).toEqual({ 'x-trace-id': '[REDACTED]' })
  // Value patterns apply under any key; ^…$ is each whole string
  expect(redactForDisk({ ssn: '123-45-6789', note: 'call 123-45-6789' }, { values: [/^\d{3}-\d{2}-\d{4}$/] })).toEqual({
    ssn: '[REDACTED]',
    note: 'call 123-45-6789',
  })
  // Only your rules: no key words, shapes or environment secrets
  expect(redactForDisk({ password: 'p', ssn: '1' }, { keys: ['ssn'], defaults: false })).toEqual({ password: 'p', ssn: '[REDACTED]' })
  // Nothing at all
  expect(redactForDisk({ password: 'p' }, false)).toEqual({ password: 'p' })
})

test('the file is redacted, the trace in memory is not', async () => {
  const s = await session('support-agent', { redact: ['ssn'] }, (s) => {
    s.logLlmCall({ toolCalls: [{ name: 'lookup_customer', arguments: { ssn: '123-45-6789', api_key: 'sk-proj-abcdefghijklmnopqrstuvwx' } }] })
  })
  const onDisk = readFileSync(s.path!, 'utf8')
  expect(onDisk).toContain('"ssn": "[REDACTED]"')
  expect(onDisk).toContain('"api_key": "[REDACTED]"')
  expect(onDisk).not.toContain('123-45-6789')
  expect(s.toolCalls('lookup_customer')[0]?.arguments).toEqual({ ssn: '123-45-6789', api_key: 'sk-proj-abcdefghijklmnopqrstuvwx' })
})
