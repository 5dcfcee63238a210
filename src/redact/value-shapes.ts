/**
 * Secrets recognised by their shape, anywhere in a string. Every scanner is
 * linear in the length of the text: regexes start with a literal (so V8
 * searches for it) and have no unbounded quantifier that can fail after a
 * long run; the rest is scanned by hand, each character a bounded number of
 * times.
 *
 *   keys and tokens  see token-shapes.ts
 *   schemes          Bearer …, Basic … (base64 of user:password), Token …
 *   URLs             https://user:password@host
 *   PEM              the body of -----BEGIN … PRIVATE KEY----- blocks
 *   webhooks         Slack, Discord, Teams URLs and signed URLs: see webhook-urls.ts
 */
import { addRange, isAlnum, isLower, isUpper, startsFree, type Ranges } from './ranges.js'
import { findJwts, findPrefixedKeys, findSkKeys } from './token-shapes.js'
import { findWebhookUrls } from './webhook-urls.js'

/** Characters of an HTTP credential (RFC 7235 token68). */
function isCredentialChar(code: number): boolean {
  return isAlnum(code) || code === 46 || code === 95 || code === 126 || code === 43 || code === 47 || code === 45 // . _ ~ + / -
}

/** Where a credential starting at `start` ends (trailing `=` padding included). */
export function credentialEnd(text: string, start: number): number {
  let end = start
  while (end < text.length && isCredentialChar(text.charCodeAt(end))) end++
  while (end < text.length && text.charCodeAt(end) === 61 /* = */) end++
  return end
}

/** At least `min` characters with a digit, a symbol, or both cases: not an ordinary word. */
export function looksLikeCredential(text: string, start: number, end: number, min: number): boolean {
  if (end - start < min) return false
  let upper = false
  let lower = false
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i)
    if (isUpper(code)) upper = true
    else if (isLower(code)) lower = true
    else return true
  }
  return upper && lower
}

/** A base64 text that decodes to printable `user:password`: the credential of `Basic`. */
function isBasicCredential(text: string, start: number, end: number): boolean {
  if (end - start < 4 || end - start > 4096) return false
  const decoded = Buffer.from(text.slice(start, end), 'base64').toString('latin1')
  if (!decoded.includes(':')) return false
  for (let i = 0; i < decoded.length; i++) {
    const code = decoded.charCodeAt(i)
    if (code < 32 || code > 126) return false
  }
  return true
}

// Bounded blanks after the scheme word: `Bearer` + 320,000 spaces costs O(16), once.
const SCHEME = /(bearer|basic|token)[ \t]{1,16}(?=[A-Za-z0-9._~+/-])/gi

/** `Bearer <credential>`, `Basic <base64 user:password>`, `Token <credential>`: the credential, the scheme word stays. */
function findSchemeCredentials(text: string, ranges: Ranges): void {
  SCHEME.lastIndex = 0
  for (let match = SCHEME.exec(text); match !== null; match = SCHEME.exec(text)) {
    if (!startsFree(text, match.index)) continue
    const start = SCHEME.lastIndex
    const end = credentialEnd(text, start)
    const scheme = match[1]!.toLowerCase()
    // After `Bearer`, twelve characters are a credential even if they read like a word; `Token` needs one that does not.
    const isSecret =
      scheme === 'basic'
        ? isBasicCredential(text, start, end)
        : scheme === 'bearer'
          ? end - start >= 12 || looksLikeCredential(text, start, end, 8)
          : looksLikeCredential(text, start, end, 12)
    if (isSecret) addRange(ranges, start, end)
    SCHEME.lastIndex = end
  }
}

/** Characters that end the authority part of a URL before any `@`. */
function endsAuthority(code: number): boolean {
  // / ? # @ whitespace " ' < > \ `
  return (
    code === 47 ||
    code === 63 ||
    code === 35 ||
    code === 64 ||
    code <= 32 ||
    code === 34 ||
    code === 39 ||
    code === 60 ||
    code === 62 ||
    code === 92 ||
    code === 96
  )
}

/** `scheme://user:password@host`: the password; `scheme://token@host`: a user part that looks like a credential. */
function findUrlCredentials(text: string, ranges: Ranges): void {
  let from = 0
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', from)) {
    const start = at + 3
    let end = start
    let colon = -1
    while (end < text.length && !endsAuthority(text.charCodeAt(end))) {
      if (colon < 0 && text.charCodeAt(end) === 58 /* : */) colon = end
      end++
    }
    if (end < text.length && text.charCodeAt(end) === 64 /* @ */) {
      if (colon >= 0) addRange(ranges, colon + 1, end)
      else if (looksLikeCredential(text, start, end, 16)) addRange(ranges, start, end)
    }
    from = Math.max(end, start)
  }
}

const PEM_BEGIN = '-----BEGIN '
const PEM_DASHES = '-----'
const PEM_END = '-----END '
const MAX_PEM_LABEL = 64

/** The body of a PEM private key block (to the end of the text when its END line is cut off). */
function findPrivateKeys(text: string, ranges: Ranges): void {
  let from = 0
  for (let at = text.indexOf(PEM_BEGIN); at !== -1; at = text.indexOf(PEM_BEGIN, from)) {
    const labelStart = at + PEM_BEGIN.length
    const labelEnd = text.indexOf(PEM_DASHES, labelStart)
    if (labelEnd === -1 || labelEnd - labelStart > MAX_PEM_LABEL || !text.slice(labelStart, labelEnd).includes('PRIVATE KEY')) {
      from = labelStart
      continue
    }
    const body = labelEnd + PEM_DASHES.length
    const close = text.indexOf(PEM_END, body)
    const end = close === -1 ? text.length : close
    addRange(ranges, body, end)
    from = end
  }
}

/** Adds the span of every secret shape in `text` to `ranges`. */
export function findValueShapes(text: string, ranges: Ranges): void {
  findSkKeys(text, ranges)
  findPrefixedKeys(text, ranges)
  findJwts(text, ranges)
  findSchemeCredentials(text, ranges)
  findUrlCredentials(text, ranges)
  findPrivateKeys(text, ranges)
  findWebhookUrls(text, ranges)
}
