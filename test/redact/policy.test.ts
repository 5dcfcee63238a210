import { describe, expect, it } from 'vitest'
import { redactForDisk, redactText, redactValue, resolveRedactPolicy, type RedactOption } from '../../src/redact/index.js'
import { envSecretsOf, isSecretEnvName } from '../../src/redact/env-secrets.js'

const noEnv = { env: {} }

describe('resolveRedactPolicy()', () => {
  it('adds key names, matched by their words in any style and within longer keys, and key patterns', () => {
    const policy = resolveRedactPolicy(['ssn', 'internal id', /^x-trace-/i], noEnv)!
    expect(redactValue({ SSN: '1', customer_ssn: '2', 'X-Internal-Id': '3', 'x-trace-id': '4', lesson: 'kept', password: 'p', name: 'Ada' }, policy)).toEqual({
      SSN: '[REDACTED]',
      customer_ssn: '[REDACTED]',
      'X-Internal-Id': '[REDACTED]',
      'x-trace-id': '[REDACTED]',
      lesson: 'kept',
      password: '[REDACTED]',
      name: 'Ada',
    })
  })

  it('applies user names to name/value pairs in text too', () => {
    expect(redactText('ssn=123-45-6789&name=ada', resolveRedactPolicy(['ssn'], noEnv)!)).toBe('ssn=[REDACTED]&name=ada')
  })

  it('always applies value patterns, anchored ones to each whole string value', () => {
    const policy = resolveRedactPolicy({ values: [/^\d{3}-\d{2}-\d{4}$/] }, noEnv)!
    expect(redactValue({ ssn: '123-45-6789', note: 'ssn 123-45-6789', nested: ['987-65-4321'], json: '{"x":"111-22-3333"}' }, policy)).toEqual({
      ssn: '[REDACTED]',
      note: 'ssn 123-45-6789',
      nested: ['[REDACTED]'],
      json: '{"x":"[REDACTED]"}',
    })
  })

  it('keeps only the user rules with defaults: false', () => {
    const policy = resolveRedactPolicy({ values: [/\d{3}-\d{2}-\d{4}/], defaults: false }, noEnv)!
    expect(redactValue({ note: 'ssn 123-45-6789', password: 'kept', text: 'Bearer abcdefghijklmnop' }, policy)).toEqual({
      note: 'ssn [REDACTED]',
      password: 'kept',
      text: 'Bearer abcdefghijklmnop',
    })
  })

  it('is undefined with false, and with defaults: false and no rules', () => {
    expect(resolveRedactPolicy(false)).toBeUndefined()
    expect(resolveRedactPolicy({ defaults: false })).toBeUndefined()
    expect(redactForDisk({ password: 'p' }, false)).toEqual({ password: 'p' })
  })

  it('resolves an option object once', () => {
    const option: RedactOption = ['ssn']
    expect(resolveRedactPolicy(option)).toBe(resolveRedactPolicy(option))
    expect(resolveRedactPolicy(undefined)).toBe(resolveRedactPolicy(undefined))
  })

  it.each([
    [true, 'redact must be false, a list of key names and RegExps, or { keys, values, defaults }; got boolean.'],
    ['ssn', 'redact must be false, a list of key names and RegExps, or { keys, values, defaults }; got "ssn".'],
    [
      [1],
      'redact must be false, a list of key names and RegExps, or { keys, values, defaults }; the list holds number, which is neither a key name nor a RegExp.',
    ],
    [
      { values: ['x'] },
      'redact must be false, a list of key names and RegExps, or { keys, values, defaults }; redact.values must be a list of RegExps (e.g. [/\\d{3}-\\d{2}-\\d{4}/]), got an array.',
    ],
    [
      { key: ['x'] },
      'redact must be false, a list of key names and RegExps, or { keys, values, defaults }; unknown key "key" (valid: keys, values, defaults).',
    ],
    [
      { defaults: 'no' },
      'redact must be false, a list of key names and RegExps, or { keys, values, defaults }; redact.defaults must be true or false, got "no".',
    ],
  ])('rejects %j with a TypeError that says what is valid', (option, message) => {
    expect(() => resolveRedactPolicy(option as RedactOption)).toThrow(new TypeError(message))
  })
})

describe('environment secrets', () => {
  const env = {
    OPENAI_API_KEY: 'sk-proj-envvalue-0001',
    GITHUB_TOKEN: 'gho_envtoken_0002',
    DB_PASSWORD: 'correct-horse-battery',
    STRIPE_KEY: 'rk_envkey_000003',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY',
    SHORT_TOKEN: 'abc',
    PWD: '/home/ci/project',
    HOME: '/home/ci',
    SSH_AUTH_SOCK: '/tmp/ssh-agent.sock',
    SESSION_MANAGER: 'local/host:@/tmp/.ICE-unix/1',
  }

  it('takes the values of secret-named variables of 8 characters or more, longest first', () => {
    expect(envSecretsOf(env)).toEqual([
      'wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY',
      'sk-proj-envvalue-0001',
      'correct-horse-battery',
      'gho_envtoken_0002',
      'rk_envkey_000003',
    ])
  })

  it.each(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'NPM_TOKEN', 'CLIENT_SECRET', 'DB_PASSWORD', 'GPG_KEY', 'SIGNING_KEYS'])('reads %s as secret', (name) => {
    expect(isSecretEnvName(name)).toBe(true)
  })

  it.each(['PWD', 'OLDPWD', 'HOME', 'PATH', 'SSH_AUTH_SOCK', 'KEY', 'SESSION_MANAGER', 'AUTH_URL', 'TOKENIZERS_PARALLELISM'])(
    'reads %s as not secret',
    (name) => {
      expect(isSecretEnvName(name)).toBe(false)
    },
  )

  it('replaces those values wherever they appear, in text, keys and JSON', () => {
    const policy = resolveRedactPolicy(undefined, { env })!
    expect(
      redactValue({ log: 'connecting with correct-horse-battery to db', ['correct-horse-battery']: 1, cwd: '/home/ci/project', short: 'abc' }, policy),
    ).toEqual({ log: 'connecting with [REDACTED] to db', '[REDACTED]': 1, cwd: '/home/ci/project', short: 'abc' })
  })

  it('are not used with defaults: false', () => {
    const policy = resolveRedactPolicy({ keys: ['ssn'], defaults: false }, { env })!
    expect(redactText('correct-horse-battery', policy)).toBe('correct-horse-battery')
  })
})
