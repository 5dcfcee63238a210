/**
 * Provider keys and tokens, recognised by their literal start:
 *
 *   sk-…            OpenAI and Anthropic keys, also glued to a word, `_` or an escape
 *   prefixed keys   AWS (AKIA/ASIA), GitHub (ghp_…, github_pat_…), Slack (xox?-),
 *                   Google (AIza), Stripe (sk_live_…), Hugging Face (hf_), npm, GitLab
 *   JWTs            eyJ….eyJ….…
 *
 * Linear, as value-shapes.ts says.
 */
import { addRange, followsEscape, isAlnum, isDigit, isLower, isUpper, startsFree, type Ranges } from './ranges.js'

// Literal first, so V8 searches for the literal; the start is checked in
// startsFree. A run that does not match is at most a few characters longer
// than the literal, or consumed whole by the match.
const PREFIXED_KEYS: readonly RegExp[] = [
  /(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])/g, // AWS access key ids
  /gh[pousr]_[A-Za-z0-9]{36,}/g, // GitHub tokens
  /github_pat_[A-Za-z0-9_]{22,}/g, // GitHub fine-grained tokens
  /xox[abeprs]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /AIza[0-9A-Za-z_-]{35}/g, // Google API keys
  /[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g, // Stripe secret and restricted keys
  /hf_[A-Za-z]{30,}/g, // Hugging Face tokens
  /npm_[A-Za-z0-9]{36}/g, // npm tokens
  /glpat-[A-Za-z0-9_-]{20,}/g, // GitLab tokens
]

export function findPrefixedKeys(text: string, ranges: Ranges): void {
  for (const pattern of PREFIXED_KEYS) {
    pattern.lastIndex = 0
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (startsFree(text, match.index)) addRange(ranges, match.index, match.index + match[0].length)
    }
  }
}

/** Characters of a JWT segment (base64url). */
function isBase64UrlChar(code: number): boolean {
  return isAlnum(code) || code === 95 || code === 45
}

function segmentEnd(text: string, start: number): number {
  let end = start
  while (end < text.length && isBase64UrlChar(text.charCodeAt(end))) end++
  return end
}

/**
 * JWTs: `eyJ…` (a JSON header) `.eyJ…` (a JSON payload) `.…` (a signature,
 * empty when unsigned). Scanned by runs: a run that is not a JWT is skipped
 * whole, so no `eyJ` inside it is read again.
 */
export function findJwts(text: string, ranges: Ranges): void {
  let from = 0
  for (let at = text.indexOf('eyJ'); at !== -1; at = text.indexOf('eyJ', from)) {
    const header = segmentEnd(text, at)
    from = header
    if (at > 0 && isBase64UrlChar(text.charCodeAt(at - 1)) && !followsEscape(text, at)) continue
    if (text.charCodeAt(header) !== 46 /* . */ || !text.startsWith('eyJ', header + 1)) continue
    const payload = segmentEnd(text, header + 1)
    from = payload
    if (text.charCodeAt(payload) !== 46) continue
    const signature = segmentEnd(text, payload + 1)
    addRange(ranges, at, signature)
    from = signature
  }
}

/** Characters of an `sk-` key. */
function isKeyChar(code: number): boolean {
  return isAlnum(code) || code === 95 /* _ */ || code === 45 /* - */
}

const KNOWN_SK_PREFIXES = ['proj-', 'ant-', 'svcacct-', 'admin-']
const MIN_SK_BODY = 16

/**
 * `sk-` keys. The key may be glued to what comes before (`lookup_sk-…`,
 * `%22sk-…`), so no word boundary is required; to keep `task-management-…`
 * readable, a key glued to a letter or digit must look random (digits, upper
 * and lower case) unless it has a known prefix (`sk-proj-`, `sk-ant-`).
 * Work is per run of key characters: each `sk-` in a run is judged in O(1)
 * from the positions of the run's last digit and capitals.
 */
export function findSkKeys(text: string, ranges: Ranges): void {
  let from = 0
  for (let hit = text.indexOf('sk-'); hit !== -1; hit = text.indexOf('sk-', from)) {
    let end = hit + 3
    let lastDigit = -1
    let lastUpper = -1
    let lastLower = -1
    while (end < text.length && isKeyChar(text.charCodeAt(end))) {
      const code = text.charCodeAt(end)
      if (isDigit(code)) lastDigit = end
      else if (isUpper(code)) lastUpper = end
      else if (isLower(code)) lastLower = end
      end++
    }
    for (let at = hit; at !== -1 && at < end; at = text.indexOf('sk-', at + 1)) {
      const body = at + 3
      const known = KNOWN_SK_PREFIXES.find((prefix) => text.startsWith(prefix, body))
      const glued = at > 0 && isAlnum(text.charCodeAt(at - 1)) && !followsEscape(text, at)
      const ok =
        known !== undefined
          ? end - body - known.length >= MIN_SK_BODY
          : glued
            ? end - body >= 20 && lastDigit >= body && lastUpper >= body && lastLower >= body
            : end - body >= MIN_SK_BODY && (lastDigit >= body || lastUpper >= body)
      if (ok) {
        addRange(ranges, at, end)
        break
      }
    }
    from = end
  }
}
