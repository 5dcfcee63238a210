/**
 * The leak corpus: every form in which a secret has been seen to reach a
 * trace, each with the secret text that must never be on disk. Secrets are
 * unique per form (`n`), so a leak names its form.
 */
import type { JsonValue } from '../../src/trace/types.js'

export interface SecretForm {
  name: string
  /** What the agent records: a string, or a structure. */
  value: JsonValue
  /** Texts that must not appear in what is written. */
  secrets: string[]
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A random-looking string of `length` letters and digits, fixed by `seed`, mixing cases and digits. */
export function randomish(seed: number, length: number, alphabet = ALNUM): string {
  let state = (seed * 2654435761) >>> 0 || 1
  let out = ''
  for (let i = 0; i < length; i++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    out += alphabet[state % alphabet.length]
  }
  // Every class present, whatever the draw.
  return `${out.slice(0, -3)}A7z`
}

const base64url = (text: string): string => Buffer.from(text).toString('base64url')

export function jwt(seed: number): string {
  return `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(`{"sub":"user-${seed}","exp":1900000000}`)}.${randomish(seed, 43)}`
}

/** The secret forms, built with secrets unique to `seed`. */
export function secretForms(seed = 1): SecretForm[] {
  let n = seed * 1000
  const s = (length = 32): string => randomish(++n, length)
  const forms: SecretForm[] = []
  const text = (name: string, make: (secret: string) => string, secret = s()): void => {
    forms.push({ name, value: make(secret), secrets: [secret] })
  }
  const keyed = (key: string, secret = s()): void => {
    forms.push({ name: `key ${JSON.stringify(key)}`, value: { [key]: secret, note: 'kept' }, secrets: [secret] })
  }

  // Provider keys, wherever they sit in text.
  text('OpenAI project key', (k) => `using ${k} for this run`, `sk-proj-${s(48)}`)
  text('OpenAI legacy key', (k) => `key: ${k}`, `sk-${s(48)}`)
  text('Anthropic key', (k) => `ANTHROPIC says ${k}.`, `sk-ant-api03-${s(93)}AA`)
  text('OpenAI service account key', (k) => k, `sk-svcacct-${s(40)}`)
  text('sk key glued to an underscore', (k) => `lookup_${k}`, `sk-proj-${s(40)}`)
  text('sk key after a percent escape', (k) => `q=%22${k}%22`, `sk-${s(40)}`)
  text('sk key after a unicode escape', (k) => `{\\u0022key\\u0022: \\u0022${k}\\u0022}`, `sk-${s(40)}`)
  text('sk key glued to a word', (k) => `apikey${k}`, `sk-${s(40)}`)
  text('Bearer token in a sentence', (k) => `call it with Bearer ${k} please`)
  text('Authorization header line', (k) => `POST /v1\nAuthorization: Bearer ${k}\nAccept: */*`, jwt(++n))
  text('lower-case bearer', (k) => `authorization=bearer ${k}`)
  text('Basic credentials', (k) => `Authorization: Basic ${k}`, Buffer.from(`admin:${s(20)}`).toString('base64'))
  text('Basic credentials in prose', (k) => `sent Basic ${k}`, Buffer.from(`svc:${s(20)}`).toString('base64'))
  text(
    'Token scheme',
    (k) => `header Token ${k}`,
    s(40)
      .toLowerCase()
      .replace(/[a-z]/g, (c) => 'abcdef'[c.charCodeAt(0) % 6]!),
  )
  text('JWT alone', (k) => `id ${k}`, jwt(++n))
  text('JWT in a query', (k) => `https://app.example.com/cb?id_token=${k}&state=x`, jwt(++n))
  text('URL password', (k) => `https://deploy:${k}@git.example.com/repo.git`)
  text('database URL password', (k) => `DATABASE_URL=postgres://admin:${k}@db.internal:5432/app`)
  text('URL token as user', (k) => `git clone https://${k}@github.com/acme/app`, `ghp_${s(36)}`)
  forms.push(
    (() => {
      const [a, b] = [s(), s()]
      return { name: 'query parameters', value: `GET /v1/data?api_key=${a}&access_token=${b}&page=2`, secrets: [a, b] }
    })(),
  )
  forms.push(
    (() => {
      const [a, b] = [s(), s()]
      return { name: 'form body', value: `grant_type=refresh_token&refresh_token=${a}&client_secret=${b}`, secrets: [a, b] }
    })(),
  )
  forms.push(
    (() => {
      const [a, b] = [s(), s()]
      return { name: 'cookie header', value: `Cookie: sessionid=${a}; csrftoken=${b}`, secrets: [a, b] }
    })(),
  )
  text('set-cookie', (k) => `set-cookie: session=${k}; Path=/; HttpOnly`)
  text('PEM private key', (k) => `-----BEGIN RSA PRIVATE KEY-----\n${k}\n-----END RSA PRIVATE KEY-----`, s(64))
  text('PEM private key cut off', (k) => `key file:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${k}`, s(64))
  text(
    'AWS access key id',
    (k) => `aws ${k}`,
    `AKIA${s(16)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, 'Q')}`,
  )
  text('AWS secret in an env dump', (k) => `AWS_SECRET_ACCESS_KEY=${k}\nAWS_REGION=eu-west-1`, s(40))
  text('GitHub token', (k) => `token is ${k}`, `ghp_${s(36)}`)
  text('GitHub fine-grained token', (k) => `pat ${k}`, `github_pat_${s(22)}_${s(59)}`)
  text('Slack token', (k) => `slack ${k}`, `xoxb-${s(12)}-${s(24)}`)
  text('Google API key', (k) => `maps ${k}`, `AIza${s(35)}`)
  text('Stripe secret key', (k) => `stripe ${k}`, `sk_live_${s(24)}`)
  text('Hugging Face token', (k) => `hf ${k}`, `hf_${randomish(++n, 34, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz').replace(/\d/g, 'q')}`)
  text('npm token', (k) => `npm ${k}`, `npm_${s(36)}`)
  text('GitLab token', (k) => `gitlab ${k}`, `glpat-${s(20)}`)
  // Webhook URLs: the path is the secret, and a key ending in `url` keeps its value readable.
  text('Slack webhook URL', (k) => `alerts go to https://hooks.slack.com/services/${k} now`, `T0${s(9)}/B0${s(9)}/${s(24)}`)
  text('Slack webhook URL as a url field', (k) => JSON.stringify({ webhook_url: `https://hooks.slack.com/services/${k}` }), `T0${s(9)}/B0${s(9)}/${s(24)}`)
  text('Discord webhook URL', (k) => `POST https://discord.com/api/webhooks/${k}?wait=true`, `1234567890123/${s(68)}`)
  text('discordapp.com webhook URL', (k) => `(https://discordapp.com/api/v10/webhooks/${k})`, `9876543210987/${s(68)}`)
  text('Microsoft Teams webhook URL', (k) => `teams: https://contoso.webhook.office.com/webhookb2/${k}`, `${s(8)}@${s(8)}/IncomingWebhook/${s(32)}/${s(8)}`)
  text('Office 365 connector URL', (k) => `https://outlook.office.com/webhook/${k}`, `${s(8)}@${s(8)}/IncomingWebhook/${s(32)}/${s(8)}`)
  text(
    'Power Automate trigger URL',
    (k) =>
      `https://prod-27.westeurope.logic.azure.com:443/workflows/a1b2/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${k}`,
  )
  text('Zapier catch hook URL', (k) => `zap: https://hooks.zapier.com/hooks/catch/${k}/`, `12345/${s(8)}`)
  forms.push(
    (() => {
      const [a, b] = [s(), s()]
      return { name: 'JSON text of a tool output', value: JSON.stringify({ password: a, api_key: b, rows: 3 }), secrets: [a, b] }
    })(),
  )
  text('JSON text, Python separators', (k) => `{"token": "${k}", "ok": true}`)
  text('JSON text, indented', (k) => JSON.stringify({ auth: { secret_key: k } }, null, 4))
  text('JSON text inside JSON text', (k) => JSON.stringify({ body: JSON.stringify({ client_secret: k }) }))
  text('Python dict text', (k) => `{'password': '${k}', 'user': 'bob'}`)
  text('double-encoded JSON', (k) => `{\\"client_secret\\": \\"${k}\\"}`)
  text('JSON text cut off', (k) => `{"api_key": "${k}", "data": [1, 2`)
  text('YAML line', (k) => `db:\n  host: x\n  password: ${k}\n`)
  text('shell export', (k) => `export OPENAI_API_KEY=${k}`)
  text('connection string', (k) => `Server=db;User Id=app;Password=${k};Encrypt=true`)
  text('command-line flag', (k) => `run --password=${k} --verbose`)
  text('JS object literal', (k) => `client({ apiKey: "${k}", retries: 2 })`)
  text('header tuples as text', (k) => `[('X-Api-Key', '${k}'), ('Accept', 'json')]`)
  forms.push(
    (() => {
      const k = s()
      return {
        name: 'header tuples',
        value: [
          ['Authorization', `Token ${k}`],
          ['Accept', 'application/json'],
        ],
        secrets: [k],
      }
    })(),
  )
  forms.push(
    (() => {
      const k = s()
      return {
        name: 'header objects (HAR)',
        value: [
          { name: 'Cookie', value: `a=${k}` },
          { name: 'Accept', value: '*/*' },
        ],
        secrets: [k],
      }
    })(),
  )
  forms.push(
    (() => {
      const k = `sk-proj-${s(40)}`
      return { name: 'a secret as an object key', value: { [k]: 'owner', other: 1 }, secrets: [k] }
    })(),
  )
  forms.push(
    (() => {
      const k = s()
      return { name: 'credentials object', value: { credentials: { username: 'svc', password: k } }, secrets: [k] }
    })(),
  )
  forms.push(
    (() => {
      const k = 9_007_199_254_740
      return { name: 'numeric api key', value: { api_key: k }, secrets: [String(k)] }
    })(),
  )
  for (const key of [
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
    'X-API-Key',
    'privateKey',
    'client_secret',
    'Authorization',
    'cookie',
    'Set-Cookie',
    'sessionid',
    'refresh_token',
    'OPENAI_API_KEY',
    'pwd',
    'access_tokens',
    'session',
  ]) {
    keyed(key)
  }
  return forms
}

/** The forms whose secret is found in `bytes`, by name: a leak report that says which form leaked. */
export function leaksIn(bytes: string, forms: readonly SecretForm[]): string[] {
  return forms.filter((form) => form.secrets.some((secret) => bytes.includes(secret))).map((form) => form.name)
}
