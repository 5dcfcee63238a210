export { redactForDisk, redactForDiskUnchecked } from './for-disk.js'
export { REDACTED, resolveRedactPolicy } from './policy.js'
export { redactProbe, redactValue, type RedactProbe } from './walk.js'
export { redactText } from './redact-text.js'

export type { RedactOption } from './policy.js'
