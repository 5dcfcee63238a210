import { describe, expect, it } from 'vitest'
import { redactText, resolveRedactPolicy } from '../../src/redact/index.js'

const policy = resolveRedactPolicy(undefined, { env: {} })!
const redact = (text: string): string => redactText(text, policy)

describe('secrets written as name/value pairs in text', () => {
  it.each([
    ['query parameters', 'GET /v1?api_key=abc123&access_token=def456&page=2', 'GET /v1?api_key=[REDACTED]&access_token=[REDACTED]&page=2'],
    ['a form body', 'grant_type=refresh_token&client_secret=xyz', 'grant_type=refresh_token&client_secret=[REDACTED]'],
    ['a cookie', 'sessionid=abc; theme=dark', 'sessionid=[REDACTED]; theme=dark'],
    ['a header line', 'GET /\nAuthorization: Token abc\nAccept: */*', 'GET /\nAuthorization: [REDACTED]\nAccept: */*'],
    ['a cookie header line', 'Cookie: a=1; b=2', 'Cookie: [REDACTED]'],
    ['a YAML line', 'db:\n  password: hunter2\n  host: x', 'db:\n  password: [REDACTED]\n  host: x'],
    ['JSON cut off', '{"api_key": "abc", "data": [1, 2', '{"api_key": "[REDACTED]", "data": [1, 2'],
    ['a quoted value with escapes', '{"password":"a\\"b","x":1}', '{"password":"[REDACTED]","x":1}'],
    ['double-encoded JSON', '{\\"client_secret\\":\\"abc\\",\\"x\\":1}', '{\\"client_secret\\":\\"[REDACTED]\\",\\"x\\":1}'],
    ['a Python dict', "{'password': 'hunter2', 'user': 'bob'}", "{'password': '[REDACTED]', 'user': 'bob'}"],
    ['a JS object literal', 'f({ apiKey: "k1", retries: 2 })', 'f({ apiKey: "[REDACTED]", retries: 2 })'],
    ['an unquoted compound name', 'config api_key: abc123 loaded', 'config api_key: [REDACTED] loaded'],
    ['a scheme after the name', 'sent auth_header: Bearer abc def', 'sent auth_header: [REDACTED] def'],
    ['a nested value cut off', '{"credentials": {"user": "a", "pass": "b"}, "n": 1', '{"credentials": [REDACTED], "n": 1'],
    ['a header tuple', "[('X-Api-Key', 'k-123'), ('Accept', 'json')]", "[('X-Api-Key', '[REDACTED]'), ('Accept', 'json')]"],
    ['a Ruby hash', '{ "token" => "abc" }', '{ "token" => "[REDACTED]" }'],
    ['a connection string', 'Server=db;Password=p@ss;Encrypt=true', 'Server=db;Password=[REDACTED];Encrypt=true'],
    ['a command-line flag', 'run --password=hunter2 -v', 'run --password=[REDACTED] -v'],
    ['an XML element', '<login><user>bob</user><password>hunter2</password></login>', '<login><user>bob</user><password>[REDACTED]</password></login>'],
    ['a namespaced XML element', '<soap:Body><ns:ApiKey a="1">k-1</ns:ApiKey></soap:Body>', '<soap:Body><ns:ApiKey a="1">[REDACTED]</ns:ApiKey></soap:Body>'],
  ])('replaces the value in %s', (_, text, expected) => {
    expect(redact(text)).toBe(expected)
  })

  it.each([
    ['counts of text tokens', 'max_tokens=256, input_tokens: 12'],
    ['a name/value pair that is not secret', 'q=refund&page=2'],
    ['a single word before a colon in prose', 'Note that my token: is not here'],
    ['a comparison', 'if token == other'],
    ['a null value', '{"password": null, "token": true}'],
    ['a list of words', "['password', 'reset', 'flow']"],
    ['URLs', 'see https://example.com/auth/token?x=1'],
    ['XML elements with other names', '<token_count>12</token_count><note>auth ok</note>'],
  ])('leaves %s alone', (_, text) => {
    expect(redact(text)).toBe(text)
  })
})
