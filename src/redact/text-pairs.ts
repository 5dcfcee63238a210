/**
 * Secrets written as name/value pairs inside text that is not parsed as
 * JSON: query strings and form bodies (`?api_key=…&access_token=…`),
 * cookies, connection strings (`Password=…;`), header lines
 * (`Authorization: …`), JSON that is cut off or double-encoded
 * (`{\"password\": \"…\"`), Python and JS literals (`{'api_key': '…'}`,
 * `{ token: "…" }`) and header tuples (`[('Authorization', 'Token …')]`).
 * The name decides, by the same words as object keys.
 *
 * One pass over the text: at each `:`, `=` or `,` the name is read backwards
 * (a bounded number of characters), and only after a secret name is the
 * value read forwards, then skipped; so the cost is linear.
 */
import { credentialEnd } from './value-shapes.js'
import { addRange, isAlnum, isBlank, isDigit, type Ranges } from './ranges.js'

const MAX_BLANKS = 16
const MAX_BARE_NAME = 64
const MAX_QUOTED_NAME = 128

const EQUALS = 61
const COMMA = 44
const BACKSLASH = 92
const NEWLINE = 10
const RETURN = 13

function isQuote(code: number): boolean {
  return code === 34 || code === 39 || code === 96 // " ' `
}

/** Characters of an unquoted name: letters, digits, `_`, `-`, `.`. */
function isNameChar(code: number): boolean {
  return isAlnum(code) || code === 95 || code === 45 || code === 46
}

/** Characters that end an unquoted value. */
function endsBareValue(code: number): boolean {
  // whitespace & ; , " ' < > # ) ] }
  return (
    code <= 32 ||
    code === 38 ||
    code === 59 ||
    code === 44 ||
    code === 34 ||
    code === 39 ||
    code === 60 ||
    code === 62 ||
    code === 35 ||
    code === 41 ||
    code === 93 ||
    code === 125
  )
}

interface Name {
  text: string
  /** Where the name (with its opening quote) starts. */
  start: number
  quoted: boolean
}

function skipBlanksBack(text: string, at: number): number {
  const limit = Math.max(-1, at - MAX_BLANKS)
  while (at > limit && isBlank(text.charCodeAt(at))) at--
  return at
}

/** The name that ends right before the separator at `sep`, or undefined. */
function nameBefore(text: string, sep: number): Name | undefined {
  const last = skipBlanksBack(text, sep - 1)
  if (last < 0) return undefined
  const code = text.charCodeAt(last)
  if (isQuote(code)) {
    // `\"name\"`: JSON text inside a JSON text, as a double-encoded payload shows it.
    const escaped = code === 34 && last > 0 && text.charCodeAt(last - 1) === BACKSLASH
    const nameEnd = escaped ? last - 1 : last
    let start = nameEnd - 1
    const limit = Math.max(-1, nameEnd - 1 - MAX_QUOTED_NAME)
    while (start > limit) {
      const c = text.charCodeAt(start)
      if (c === code || c === BACKSLASH || c === NEWLINE) break
      start--
    }
    if (start <= limit || text.charCodeAt(start) !== code) return undefined
    if (escaped && (start === 0 || text.charCodeAt(start - 1) !== BACKSLASH)) return undefined
    return { text: text.slice(start + 1, nameEnd), start: escaped ? start - 1 : start, quoted: true }
  }
  let start = last
  const limit = Math.max(-1, last - MAX_BARE_NAME)
  while (start > limit && isNameChar(text.charCodeAt(start))) start--
  // Stopped by the limit inside a longer run of name characters: not a name we read.
  if (start === last || (start === limit && limit >= 0 && isNameChar(text.charCodeAt(limit)))) return undefined
  return { text: text.slice(start + 1, last + 1), start: start + 1, quoted: false }
}

/** The last non-blank character before `at`, or -1 (at the start of the text). */
function codeBefore(text: string, at: number): number {
  const i = skipBlanksBack(text, at - 1)
  return i < 0 ? -1 : text.charCodeAt(i)
}

const MAX_INDENT = 256

/** Only blanks (or a YAML `- `) between the start of the line and `at`. */
function startsLine(text: string, at: number): boolean {
  const limit = Math.max(-1, at - 1 - MAX_INDENT)
  for (let i = at - 1; i > limit; i--) {
    const code = text.charCodeAt(i)
    if (code === NEWLINE || code === RETURN) return true
    if (!isBlank(code) && code !== 45) return false
  }
  return limit === -1
}

/** More than one word: `api_key`, `x-auth-token`, `clientSecret`; unlikely in prose, unlike `Password:`. */
function isCompound(name: string): boolean {
  for (let i = 1; i < name.length; i++) {
    const code = name.charCodeAt(i)
    if (code === 95 || code === 45 || code === 46) return true
    if (code >= 65 && code <= 90 && name.charCodeAt(i - 1) >= 97 && name.charCodeAt(i - 1) <= 122) return true
  }
  return false
}

/** Whether the pair shape fits the separator, so that ordinary prose is left alone. */
function isPairShape(text: string, sep: number, name: Name): 'line' | 'inline' | undefined {
  const code = text.charCodeAt(sep)
  if (code === COMMA) {
    // A tuple: ('Authorization', '…') or ["x-api-key", "…"].
    const before = codeBefore(text, name.start)
    return name.quoted && (before === 40 || before === 91) ? 'inline' : undefined
  }
  if (code === EQUALS) return text.charCodeAt(sep + 1) === EQUALS ? undefined : 'inline'
  if (text.charCodeAt(sep + 1) === 47 /* :/ of a URL */) return undefined
  if (name.quoted) return 'inline'
  if (startsLine(text, name.start)) return 'line'
  const before = codeBefore(text, name.start)
  return before === 123 || before === 44 || isCompound(name.text) ? 'inline' : undefined
}

/** Where a quoted value that opens at `open` closes (the index of its closing quote), or the end of the text. */
function closingQuote(text: string, open: number, escaped: boolean): number {
  const quote = text.charCodeAt(escaped ? open + 1 : open)
  for (let i = escaped ? open + 2 : open + 1; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (escaped) {
      if (code === BACKSLASH && text.charCodeAt(i + 1) === quote) return i
    } else if (code === BACKSLASH) {
      i++
    } else if (code === quote) {
      return i
    }
  }
  return text.length
}

/** Where the bracketed value opening at `open` closes (after its closing bracket), quoted text skipped; else the end. */
function closingBracket(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 123 || code === 91) depth++
    else if (code === 125 || code === 93) {
      if (--depth === 0) return i + 1
    } else if (code === 34 || code === 39) {
      i = closingQuote(text, i, false)
    }
  }
  return text.length
}

const LITERALS = new Set(['null', 'true', 'false', 'None', 'True', 'False', 'undefined'])

/**
 * The span of the value after the separator at `sep`, as [start, end, next]
 * (next: where scanning resumes), or undefined when there is no value.
 */
function valueAfter(text: string, sep: number, shape: 'line' | 'inline'): [number, number, number] | undefined {
  let start = sep + 1
  if (text.charCodeAt(sep) === EQUALS && text.charCodeAt(start) === 62 /* => */) start++
  for (let blanks = 0; blanks < MAX_BLANKS && isBlank(text.charCodeAt(start)); blanks++) start++
  if (start >= text.length) return undefined
  const code = text.charCodeAt(start)
  const escapedQuote = code === BACKSLASH && text.charCodeAt(start + 1) === 34
  if (isQuote(code) || escapedQuote) {
    const close = closingQuote(text, start, escapedQuote)
    return [start + (escapedQuote ? 2 : 1), close, close + 1]
  }
  if (code === 123 || code === 91) {
    const end = closingBracket(text, start)
    return [start, end, end]
  }
  if (shape === 'line') {
    let end = start
    while (end < text.length && text.charCodeAt(end) !== NEWLINE && text.charCodeAt(end) !== RETURN) end++
    while (end > start && isBlank(text.charCodeAt(end - 1))) end--
    return [start, end, end]
  }
  let end = start
  while (end < text.length && !endsBareValue(text.charCodeAt(end))) end++
  // `api_key: Bearer abc…`: the credential after a scheme word belongs to the value.
  if (end < text.length && isBlank(text.charCodeAt(end)) && /^(?:bearer|basic|token|digest)$/i.test(text.slice(start, end))) {
    let next = end
    for (let blanks = 0; blanks < MAX_BLANKS && isBlank(text.charCodeAt(next)); blanks++) next++
    end = Math.max(end, credentialEnd(text, next))
  }
  if (LITERALS.has(text.slice(start, end))) return undefined
  return [start, end, end]
}

/** A tuple ends right after its second item: `('Authorization', '…')`, not `['password', 'reset', 'flow']`. */
function closesTuple(text: string, at: number): boolean {
  let i = at
  for (let blanks = 0; blanks < MAX_BLANKS && isBlank(text.charCodeAt(i)); blanks++) i++
  const code = text.charCodeAt(i)
  return code === 41 || code === 93
}

/** A source file's name: what a stack frame shows before its line and column (`session.js:12:5`). */
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|py|rb|go|java|kt|rs|php|cs|swift|vue|svelte)$/

const MAX_LOCATION_DIGITS = 10

/** Where the digits starting at `at` end (at most MAX_LOCATION_DIGITS of them), or -1 when there are none. */
function digitsEnd(text: string, at: number): number {
  let end = at
  while (end < text.length && end - at <= MAX_LOCATION_DIGITS && isDigit(text.charCodeAt(end))) end++
  return end > at && end - at <= MAX_LOCATION_DIGITS ? end : -1
}

/**
 * `file.js:12` or `file.js:12:5` (a stack frame's location): not a pair, even
 * when a word of the file's name is a secret one (`session.js`).
 */
function isSourceLocation(text: string, sep: number, name: Name): boolean {
  if (name.quoted || text.charCodeAt(sep) !== 58 /* : */ || !SOURCE_FILE.test(name.text)) return false
  let end = digitsEnd(text, sep + 1)
  if (end !== -1 && text.charCodeAt(end) === 58) end = digitsEnd(text, end + 1)
  return end !== -1 && (end === text.length || !isNameChar(text.charCodeAt(end)))
}

/** Reads the pair around the separator at `sep`; returns where to look for the next separator. */
function findPairAt(text: string, sep: number, ranges: Ranges, isSecretName: (name: string) => boolean): number {
  const name = nameBefore(text, sep)
  if (name === undefined || isSourceLocation(text, sep, name)) return sep + 1
  const shape = isPairShape(text, sep, name)
  if (shape === undefined || !isSecretName(name.text)) return sep + 1
  const value = valueAfter(text, sep, shape)
  if (value === undefined || (text.charCodeAt(sep) === COMMA && !closesTuple(text, value[2]))) return sep + 1
  addRange(ranges, value[0], value[1])
  return Math.max(sep + 1, value[2])
}

/** Adds the value span of every pair in `text` whose name `isSecretName` accepts. */
export function findSecretPairs(text: string, ranges: Ranges, isSecretName: (name: string) => boolean): void {
  // The next of each separator, by native search: most text has few of them.
  let colon = text.indexOf(':')
  let equals = text.indexOf('=')
  let comma = text.indexOf(',')
  for (;;) {
    const sep = Math.min(colon < 0 ? Infinity : colon, equals < 0 ? Infinity : equals, comma < 0 ? Infinity : comma)
    if (sep === Infinity) return
    const resume = findPairAt(text, sep, ranges, isSecretName)
    if (colon >= 0 && colon < resume) colon = text.indexOf(':', resume)
    if (equals >= 0 && equals < resume) equals = text.indexOf('=', resume)
    if (comma >= 0 && comma < resume) comma = text.indexOf(',', resume)
  }
}
