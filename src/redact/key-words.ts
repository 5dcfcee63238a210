/**
 * Which key names hold secrets, decided by the WORDS of the name rather than
 * by a list of exact names: `db_password`, `X-Auth-Token`, `awsSecretAccessKey`
 * and `Api.Key` are all caught, while `max_tokens`, `token_usage` and
 * `session_id` stay readable. The lists below are the whole rule; the README
 * repeats them.
 *
 *   splitKeyWords()   a key as lower-case words (any case or separator style)
 *   classifyWords()   'secret', 'weak' (a string or number value only) or 'plain'
 */

/** Words that make a key secret wherever they appear in it. */
export const SECRET_WORDS: readonly string[] = [
  'token',
  'secret',
  'secrets',
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'passcode',
  'credential',
  'credentials',
  'creds',
  'auth',
  'authorization',
  'authentication',
  'oauth',
  'cookie',
  'cookies',
  'bearer',
  'jwt',
  'sessionid',
  'sessid',
  'phpsessid',
  'jsessionid',
]

/** `key`/`keys` is secret after one of these words (`api_key`, `private_key`, `aws_secret_access_key`), never alone. */
export const KEY_QUALIFIERS: readonly string[] = [
  'api',
  'private',
  'secret',
  'access',
  'client',
  'signing',
  'encryption',
  'master',
  'license',
  'licence',
  'ssh',
  'session',
  'auth',
  'app',
  'account',
  'service',
  'storage',
  'admin',
  'shared',
  'hmac',
  'webhook',
  'subscription',
]

/**
 * `tokens` (plural) counts tokens of text (`max_tokens`, `input_tokens`)
 * unless one of these words says they are credentials (`access_tokens`).
 */
export const TOKENS_QUALIFIERS: readonly string[] = ['access', 'refresh', 'auth', 'bearer', 'api', 'id', 'session', 'oauth', 'csrf', 'xsrf', 'jwt']

/** Words that, in a key with no other secret word, hold a secret only as a string or number (`session`, `session_data`). */
export const WEAK_WORDS: readonly string[] = ['session']

/**
 * A key whose LAST word is one of these describes a secret instead of
 * holding it, and stays readable: `session_id`, `token_usage`, `token_count`,
 * `auth_type`, `password_min_length`, `secret_name`, `api_key_id`.
 */
export const DESCRIPTOR_WORDS: readonly string[] = [
  'id',
  'ids',
  'type',
  'types',
  'kind',
  'name',
  'names',
  'label',
  'description',
  'hint',
  'count',
  'counts',
  'usage',
  'limit',
  'limits',
  'budget',
  'remaining',
  'used',
  'estimate',
  'details',
  'length',
  'len',
  'size',
  'max',
  'min',
  'ttl',
  'expiry',
  'expires',
  'expiration',
  'at',
  'in',
  'url',
  'uri',
  'endpoint',
  'path',
  'file',
  'dir',
  'sock',
  'socket',
  'policy',
  'required',
  'enabled',
  'disabled',
  'method',
  'methods',
  'scheme',
  'mode',
  'strategy',
  'provider',
  'source',
  'format',
  'version',
  'status',
  'prefix',
  'error',
  'errors',
  'message',
  'reason',
]

/**
 * A singular `token` after one of these words is not a credential: page
 * tokens of paginated APIs, and the special tokens of a tokenizer.
 */
export const NON_SECRET_TOKEN_MODIFIERS: readonly string[] = [
  'page',
  'next',
  'prev',
  'previous',
  'continuation',
  'pagination',
  'cursor',
  'sync',
  'eos',
  'bos',
  'pad',
  'unk',
  'sep',
  'cls',
  'mask',
  'special',
  'stop',
]

const secretWords = new Set(SECRET_WORDS)
const keyQualifiers = new Set(KEY_QUALIFIERS)
const tokensQualifiers = new Set(TOKENS_QUALIFIERS)
const weakWords = new Set(WEAK_WORDS)
const descriptors = new Set(DESCRIPTOR_WORDS)
const tokenModifiers = new Set(NON_SECRET_TOKEN_MODIFIERS)

/** Secret words that may end a word written without separators (`apitoken`, `dbpassword`, `clientsecret`). */
const GLUED_ENDINGS: readonly string[] = ['token', 'tokens', 'secret', 'password', 'passwd', 'passphrase', 'credentials', 'cookie', 'key']

const LOWER = 1
const UPPER = 2
const DIGIT = 3

function charKind(code: number): number {
  if (code >= 97 && code <= 122) return LOWER
  if (code >= 65 && code <= 90) return UPPER
  if (code >= 48 && code <= 57) return DIGIT
  return 0
}

/** `apikey` -> `api`, `key`; `dbpassword` -> `db`, `password`; others as they are. */
function unglue(word: string, out: string[]): void {
  for (const ending of GLUED_ENDINGS) {
    if (word.length > ending.length && word.endsWith(ending)) {
      out.push(word.slice(0, word.length - ending.length), ending)
      return
    }
  }
  out.push(word)
}

/**
 * The words of a key, lower-cased: split at anything that is not a letter or
 * digit, at camelCase humps (`apiKey`), at the end of an acronym (`APIKey`)
 * and between letters and digits; then a word ending in a secret word is
 * split before it (`apitoken`). Non-ASCII letters are separators: secret
 * words are English.
 */
export function splitKeyWords(key: string): string[] {
  const words: string[] = []
  let start = -1
  let previous = 0
  const flush = (end: number): void => {
    if (start >= 0) unglue(key.slice(start, end).toLowerCase(), words)
    start = -1
  }
  for (let i = 0; i < key.length; i++) {
    const kind = charKind(key.charCodeAt(i))
    if (kind === 0) {
      flush(i)
    } else if (start < 0) {
      start = i
    } else if ((kind === UPPER && previous === LOWER) || (kind === LOWER && previous === UPPER && i - start > 1) || (kind === DIGIT) !== (previous === DIGIT)) {
      // `APIKey`: the hump is before the last capital of the acronym.
      const at = kind === LOWER ? i - 1 : i
      flush(at)
      start = at
    }
    previous = kind
  }
  flush(key.length)
  return words
}

export type KeyClass = 'secret' | 'weak' | 'plain'

/**
 * Whether a word before `end` is one of `list`, or ends with one of its
 * words of three letters or more (`xapi` of `xapikey`, `nextpage` of
 * `nextpagetoken`, words written without separators).
 */
function hasBefore(words: readonly string[], end: number, list: readonly string[], set: ReadonlySet<string>): boolean {
  for (let i = 0; i < end; i++) {
    const word = words[i]!
    if (set.has(word)) return true
    for (const item of list) if (item.length >= 3 && word.length > item.length && word.endsWith(item)) return true
  }
  return false
}

/** Whether the word at `i` makes the key secret, given the words before it. */
function isSecretWordAt(words: readonly string[], i: number): boolean {
  const word = words[i]!
  if (word === 'token') return !hasBefore(words, i, NON_SECRET_TOKEN_MODIFIERS, tokenModifiers)
  if (word === 'key' || word === 'keys') return hasBefore(words, i, KEY_QUALIFIERS, keyQualifiers)
  if (word === 'tokens') return hasBefore(words, i, TOKENS_QUALIFIERS, tokensQualifiers)
  return secretWords.has(word)
}

/** The class of a key from its words (see the lists above). */
export function classifyWords(words: readonly string[]): KeyClass {
  const last = words[words.length - 1]
  if (last === undefined || descriptors.has(last)) return 'plain'
  let weak = false
  for (let i = 0; i < words.length; i++) {
    if (isSecretWordAt(words, i)) return 'secret'
    if (weakWords.has(words[i]!)) weak = true
  }
  return weak ? 'weak' : 'plain'
}

/** The words of `name` joined without separators: how user key names are compared. */
export function compactName(name: string): string {
  return splitKeyWords(name).join('')
}
