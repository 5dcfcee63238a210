/** docs/redaction.md: its examples do what it says, and its word lists are the code's. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { redactForDisk } from '../../src/entries/files.js'
import { DESCRIPTOR_WORDS, KEY_QUALIFIERS, NON_SECRET_TOKEN_MODIFIERS, SECRET_WORDS, TOKENS_QUALIFIERS, WEAK_WORDS } from '../../src/redact/key-words.js'

it('does what docs/redaction.md says each option does', () => {
  expect(redactForDisk({ customer_ssn: '123-45-6789', note: 'ok' }, ['ssn'])).toEqual({ customer_ssn: '[REDACTED]', note: 'ok' })
  expect(redactForDisk({ 'x-trace-id': 'abc' }, [/^x-trace-/])).toEqual({ 'x-trace-id': '[REDACTED]' })
  expect(redactForDisk({ ssn: '123-45-6789', note: 'call 123-45-6789' }, { values: [/^\d{3}-\d{2}-\d{4}$/] })).toEqual({
    ssn: '[REDACTED]',
    note: 'call 123-45-6789',
  })
  expect(redactForDisk({ password: 'p', ssn: '1' }, { keys: ['ssn'], defaults: false })).toEqual({ password: 'p', ssn: '[REDACTED]' })
  expect(redactForDisk({ password: 'p' }, false)).toEqual({ password: 'p' })
})

it('lists in docs/redaction.md every word the key rules use', () => {
  const page = readFileSync(join(import.meta.dirname, '../../docs/redaction.md'), 'utf8')
  const section = page.slice(page.indexOf('\n## By key name\n'), page.indexOf('\n## By value\n'))
  const words = [...SECRET_WORDS, ...KEY_QUALIFIERS, ...TOKENS_QUALIFIERS, ...WEAK_WORDS, ...DESCRIPTOR_WORDS, ...NON_SECRET_TOKEN_MODIFIERS]
  // A word and its plural are written `secret(s)`.
  const written = (word: string): boolean => [word, `${word}(s)`, word.replace(/s$/, '(s)')].some((form) => section.includes(`\`${form}\``))
  const missing = words.filter((word) => !written(word))
  expect(missing).toEqual([])
})
