import { describe, expect, it } from 'vitest'
import { classifyWords, splitKeyWords } from '../../src/redact/key-words.js'

const classify = (key: string): string => classifyWords(splitKeyWords(key))

describe('splitKeyWords()', () => {
  it.each([
    ['aws_secret_access_key', 'aws secret access key'],
    ['x-auth-token', 'x auth token'],
    ['Api.Key', 'api key'],
    ['api key', 'api key'],
    ['APIKey', 'api key'],
    ['clientSecret', 'client secret'],
    ['OPENAI_API_KEY', 'openai api key'],
    ['apitoken', 'api token'],
    ['dbpassword', 'db password'],
    ['token2', 'token 2'],
    ['max_tokens', 'max tokens'],
    ['', ''],
    ['clé_secrète', 'cl secr te'],
  ])('reads %j as the words %j', (key, words) => {
    expect(splitKeyWords(key).join(' ')).toBe(words)
  })
})

describe('secret keys, by their words', () => {
  it.each([
    'token',
    'auth_token',
    'secret_key',
    'aws_secret_access_key',
    'db_password',
    'session_token',
    'id_token',
    'x-auth-token',
    'passphrase',
    'credentials',
    'api key',
    'Api.Key',
    'apiKey',
    'API_KEY',
    'X-API-Key',
    'xapikey',
    'apikey',
    'authorization',
    'Proxy-Authorization',
    'cookie',
    'Set-Cookie',
    'password',
    'passwd',
    'pwd',
    'client_secret',
    'access_token',
    'refresh_token',
    'private_key',
    'privateKey',
    'sessionid',
    'PHPSESSID',
    'jsessionid',
    'bearer',
    'jwt',
    'access_tokens',
    'password_hash',
    'api_key_2',
    'token_github',
    'creds',
    'oauth',
    'auth',
    'secrets',
    'signing_key',
    'webhook_secret',
    'Ocp-Apim-Subscription-Key',
  ])('%s is secret', (key) => {
    expect(classify(key)).toBe('secret')
  })

  it.each(['session', 'session_data', 'Session'])('%s is weak: secret only as a string or number', (key) => {
    expect(classify(key)).toBe('weak')
  })

  it.each([
    // The allow-list named in the README: counts of text tokens and our own fields.
    'max_tokens',
    'token_usage',
    'input_tokens',
    'output_tokens',
    'total_tokens',
    'prompt_tokens',
    'completion_tokens',
    'cache_read_tokens',
    'cache_read_input_tokens',
    'cache_creation_input_tokens',
    'reasoning_tokens',
    'cached_tokens',
    'audio_tokens',
    'accepted_prediction_tokens',
    'input_tokens_details',
    'completion_tokens_details',
    'maxOutputTokens',
    'maxTokens',
    'session_id',
    'sessionId',
    'token_count',
    'tokenCount',
    'tokenizer',
    'tokens',
    'token_type',
    'token_limit',
    'nextPageToken',
    'page_token',
    'continuation_token',
    'eos_token',
    'pad_token',
    'auth_type',
    'auth_url',
    'authorization_url',
    'password_min_length',
    'password_required',
    'secret_name',
    'api_key_id',
    'private_key_id',
    'access_key_id',
    'client_id',
    'public_key',
    'key',
    'keys',
    'primary_key',
    'monkey',
    'author',
    'authority',
    'www-authenticate',
    'signature',
    'passenger',
    'expires_in',
    'credential_type',
    'cookie_name',
    'SSH_AUTH_SOCK',
    'token_expires_at',
  ])('%s stays readable', (key) => {
    expect(classify(key)).toBe('plain')
  })
})
