/**
 * The literal values of the process's secret-looking environment variables
 * (`OPENAI_API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`, `STRIPE_KEY`, ...): an
 * agent under test holds exactly these, so wherever one shows up in a trace,
 * whatever its shape, it is replaced. Read once per process.
 */
import { classifyWords, splitKeyWords } from './key-words.js'
import { addRange, type Ranges } from './ranges.js'

/** Shorter values would match ordinary text. */
export const MIN_ENV_SECRET_LENGTH = 8

/** Variables named like secrets that hold something else: the working directories of the shell. */
const NOT_SECRETS = new Set(['PWD', 'OLDPWD'])

/** Whether an environment variable of this name holds a secret: a secret key name, or one ending in `_KEY`/`_KEYS`. */
export function isSecretEnvName(name: string): boolean {
  if (NOT_SECRETS.has(name)) return false
  const words = splitKeyWords(name)
  const last = words[words.length - 1]
  return classifyWords(words) === 'secret' || (words.length > 1 && (last === 'key' || last === 'keys'))
}

/** The values of the secret variables of `env`, longest first (so a value containing another is replaced whole). */
export function envSecretsOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>()
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.trim().length >= MIN_ENV_SECRET_LENGTH && isSecretEnvName(name)) values.add(value)
  }
  return [...values].sort((a, b) => b.length - a.length)
}

let processSecrets: readonly string[] | undefined

/** `envSecretsOf(process.env)`, read on first use. */
export function processEnvSecrets(): readonly string[] {
  return (processSecrets ??= envSecretsOf(process.env))
}

/** Adds the span of every occurrence of each value of `secrets` in `text`. */
export function findLiterals(text: string, secrets: readonly string[], ranges: Ranges): void {
  for (const secret of secrets) {
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + secret.length)) addRange(ranges, at, at + secret.length)
  }
}
