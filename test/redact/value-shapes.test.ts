import { describe, expect, it } from 'vitest'
import { redactText, resolveRedactPolicy } from '../../src/redact/index.js'
import { jwt, randomish } from './corpus.js'

const policy = resolveRedactPolicy(undefined, { env: {} })!
const redact = (text: string): string => redactText(text, policy)
const key48 = randomish(3, 48)
const token = jwt(5)

describe('secrets found by their shape', () => {
  it.each([
    ['an OpenAI project key', `key is sk-proj-${key48}`, 'key is [REDACTED]'],
    ['an OpenAI legacy key', `sk-${key48}.`, '[REDACTED].'],
    ['an Anthropic key', `sk-ant-api03-${key48}-AAAA rest`, '[REDACTED] rest'],
    ['a key glued to an underscore', `lookup_sk-proj-${key48}`, 'lookup_[REDACTED]'],
    ['a key after a percent escape', `q=%22sk-${key48}%22`, 'q=%22[REDACTED]%22'],
    ['a key after a unicode escape', `\\u0022sk-${key48}\\u0022`, '\\u0022[REDACTED]\\u0022'],
    ['a random key glued to a word', `apikeysk-${key48}`, 'apikey[REDACTED]'],
    ['a bearer token', `Bearer ${key48}`, 'Bearer [REDACTED]'],
    ['a lower-case bearer token', `bearer ${token}`, 'bearer [REDACTED]'],
    ['Basic credentials (base64 of user:password)', 'use Basic dXNlcjpodW50ZXIy now', 'use Basic [REDACTED] now'],
    ['a Token credential', 'Token 9f8e7d6c5b4a39281706f5e4', 'Token [REDACTED]'],
    ['a JWT', `id=${token};`, 'id=[REDACTED];'],
    ['a JWT after an escape', `%22${token}%22`, '%22[REDACTED]%22'],
    ['an unsigned JWT', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0. end', '[REDACTED] end'],
    ['a URL password', 'https://deploy:hunter22@git.example.com/x', 'https://deploy:[REDACTED]@git.example.com/x'],
    ['a URL with an empty user', 'redis://:s3cret-pw@cache:6379', 'redis://:[REDACTED]@cache:6379'],
    ['a token as the user of a URL', `https://x${key48}@github.com/a`, 'https://[REDACTED]@github.com/a'],
    ['a PEM private key', '-----BEGIN PRIVATE KEY-----\nMIIEv\n-----END PRIVATE KEY-----', '-----BEGIN PRIVATE KEY-----[REDACTED]-----END PRIVATE KEY-----'],
    ['a PEM key cut off', 'x -----BEGIN EC PRIVATE KEY-----\nMHcCAQEE', 'x -----BEGIN EC PRIVATE KEY-----[REDACTED]'],
    ['an AWS key id', 'AKIAIOSFODNN7EXAMPLE', '[REDACTED]'],
    ['an AWS session key id', '"ASIAY34FZKBOKMUTVV7A"', '"[REDACTED]"'],
    ['a GitHub token', `ghp_${'a1B2'.repeat(9)}`, '[REDACTED]'],
    ['a GitHub fine-grained token', `github_pat_${'A1b2C3d4E5f6G7h8I9j0K1'}_${'x'.repeat(59)}`, '[REDACTED]'],
    ['a Slack token', 'xoxb-123456789012-abcdefABCDEF', '[REDACTED]'],
    ['a Google API key', `AIza${'Sy0123456789abcdefghijklmnopqrstuvw'}`, '[REDACTED]'],
    ['a Stripe key', `sk_live_${'51Hx9aBcDeFgHiJkLmNoPq'}`, '[REDACTED]'],
    ['a Hugging Face token', `hf_${'abcdefghijklmnopqrstuvwxyzABCDEFGH'}`, '[REDACTED]'],
    ['an npm token', `npm_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`, '[REDACTED]'],
    ['a GitLab token', 'glpat-AbCdEfGhIjKlMnOpQrSt', '[REDACTED]'],
    [
      'a Slack webhook URL',
      'posted to https://hooks.slack.com/services/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 now',
      'posted to https://hooks.slack.com/services/[REDACTED] now',
    ],
    ['a Slack workflow webhook URL', '<https://hooks.slack.com/workflows/T01/A02/123/abcDEF456>', '<https://hooks.slack.com/workflows/[REDACTED]>'],
    ['a Discord webhook URL', 'https://discord.com/api/webhooks/1234567890/AbC-dEf_123?wait=true', 'https://discord.com/api/webhooks/[REDACTED]?wait=true'],
    [
      'a versioned discordapp.com webhook URL',
      'https://discordapp.com/api/v10/webhooks/1234567890/AbCdEf123',
      'https://discordapp.com/api/v10/webhooks/[REDACTED]',
    ],
    [
      'a Microsoft Teams webhook URL',
      '"https://contoso.webhook.office.com/webhookb2/0a1b-2c@3d4e/IncomingWebhook/9f8e7d/5c6b-a7"',
      '"https://contoso.webhook.office.com/webhookb2/[REDACTED]"',
    ],
    ['an Office 365 connector URL', 'outlook.office.com/webhook/0a1b2c@3d4e/IncomingWebhook/9f8e/5c6b', 'outlook.office.com/webhook/[REDACTED]'],
    [
      'a Power Automate trigger URL',
      'https://prod-12.westus.logic.azure.com:443/workflows/0a1b/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers&sv=1.0&sig=Ab1Cd2Ef3Gh4 ok',
      'https://prod-12.westus.logic.azure.com:443/workflows/0a1b/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers&sv=1.0&sig=[REDACTED] ok',
    ],
    ['a Zapier catch hook URL', 'https://hooks.zapier.com/hooks/catch/123456/abcdef/', 'https://hooks.zapier.com/hooks/catch/[REDACTED]'],
    [
      'a webhook URL in JSON text',
      '{"url":"https:\\/\\/hooks.slack.com\\/services\\/T01\\/B02\\/xyz789"}',
      '{"url":"https:\\/\\/hooks.slack.com\\/services\\/[REDACTED]"}',
    ],
    [
      'a webhook URL inside a query',
      'GET /relay?to=https%3A%2F%2Fhooks.slack.com%2Fservices%2FT01%2FB02%2Fxyz789&x=1',
      'GET /relay?to=https%3A%2F%2Fhooks.slack.com%2Fservices%2F[REDACTED]&x=1',
    ],
  ])('replaces %s', (_, text, expected) => {
    expect(redact(text)).toBe(expected)
  })

  it.each([
    ['kebab-case words after "sk-"', 'task-management-system-for-agents'],
    ['a word run after "sk-" glued to a word', 'ask-me-anything-about-everything'],
    ['"Bearer" in prose', 'the bearer of this note'],
    ['"Bearer" before a short word', 'Bearer tokens are sent in a header'],
    ['"Basic" in prose', 'Basic Authentication is not enough'],
    ['"Token" in prose', 'Token counts grew; token limits apply'],
    ['a URL without credentials', 'https://medium.com/@ada/post?x=1'],
    ['an ssh URL user', 'ssh://git@github.com/acme/app.git'],
    ['an email address', 'write to ada@example.com'],
    ['a public key block', '-----BEGIN PUBLIC KEY-----\nMIIBIjAN\n-----END PUBLIC KEY-----'],
    ['base64 that is not user:password', 'Basic aGVsbG8gd29ybGQ='],
    ['ordinary text', 'Refund order 42 for $19.99'],
    ['a stack frame of a file named after a secret word', 'Error: boom\n    at run (/app/src/session.js:123:45)\n    at file:///app/auth-token.ts:7:3'],
    ['a stack frame on Windows', 'at Object.<anonymous> (C:\\app\\session.mjs:12:5)'],
    ['a file and line', 'see session.py:88 for details'],
    ['a Slack page that is not a webhook', 'https://hooks.slack.com/ and https://api.slack.com/messaging/webhooks'],
    ['a Discord URL that is not a webhook', 'https://discord.com/api/guilds/123'],
  ])('leaves %s alone', (_, text) => {
    expect(redact(text)).toBe(text)
  })

  it.each([
    ['a session value after a colon', 'session: 8f3a9c2e71d4b6a0', 'session: [REDACTED]'],
    ['a secret after a file name that is not a line number', 'session.js: Ab12Cd34Ef56', 'session.js: [REDACTED]'],
    ['a secret glued to a line number', 'session.js:123abcDEF456', 'session.js:[REDACTED]'],
  ])('still replaces %s', (_, text, expected) => {
    expect(redact(text)).toBe(expected)
  })
})
