export { redactForDisk } from './for-disk.js'
export { REDACTED, resolveRedactPolicy, isSecretName } from './policy.js'
export { redactValue } from './walk.js'
export { redactText } from './redact-text.js'
export { splitKeyWords, classifyWords, SECRET_WORDS, KEY_QUALIFIERS, TOKENS_QUALIFIERS, WEAK_WORDS, DESCRIPTOR_WORDS, NON_SECRET_TOKEN_MODIFIERS } from './key-words.js'
export { isSecretEnvName, MIN_ENV_SECRET_LENGTH } from './env-secrets.js'

export type { RedactOption, RedactPolicy, RedactEnvironment } from './policy.js'
export type { KeyClass } from './key-words.js'
