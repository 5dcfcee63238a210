/**
 * Webhook URLs whose path is the secret: whoever holds the URL posts to the
 * channel, and a key name ending in `url` keeps its value readable, so the
 * URL itself must be known. The host and the path words stay; what follows
 * them (ids and token) is replaced:
 *
 *   Slack            hooks.slack.com/services/[REDACTED] (also workflows/, triggers/)
 *   Discord          discord.com/api/webhooks/[REDACTED] (discordapp.com, /api/v10/webhooks/)
 *   Microsoft Teams  <tenant>.webhook.office.com/webhookb2/[REDACTED], outlook.office.com/webhook/…
 *   Zapier           hooks.zapier.com/hooks/catch/[REDACTED]
 *   signed URLs      ?…&sig=[REDACTED] (Power Automate and Logic Apps triggers, Azure SAS)
 *
 * Paths may be written with `/`, `\/` (JSON text) or `%2F` (a URL inside a
 * query). Linear: each host is searched natively, and a replaced span is
 * skipped whole.
 */
import { addRange, type Ranges } from './ranges.js'

interface PathWebhook {
  host: string
  /** The path words before the secret, each list one accepted path; `v#` is `v` and a version number. */
  paths: readonly (readonly string[])[]
}

const PATH_WEBHOOKS: readonly PathWebhook[] = [
  { host: 'hooks.slack.com', paths: [['services'], ['workflows'], ['triggers']] },
  {
    host: 'discord.com',
    paths: [
      ['api', 'webhooks'],
      ['api', 'v#', 'webhooks'],
    ],
  },
  {
    host: 'discordapp.com',
    paths: [
      ['api', 'webhooks'],
      ['api', 'v#', 'webhooks'],
    ],
  },
  { host: 'webhook.office.com', paths: [['webhookb2']] },
  { host: 'outlook.office.com', paths: [['webhook']] },
  { host: 'outlook.office365.com', paths: [['webhook']] },
  { host: 'hooks.zapier.com', paths: [['hooks', 'catch']] },
]

/** The length of the path separator at `at` (`/`, `\/`, `%2F`), or 0. */
function separatorAt(text: string, at: number): number {
  const code = text.charCodeAt(at)
  if (code === 47) return 1
  if (code === 92 && text.charCodeAt(at + 1) === 47) return 2
  if (code === 37 && text.charCodeAt(at + 1) === 50 && (text.charCodeAt(at + 2) | 32) === 102) return 3 // %2F, %2f
  return 0
}

/** Where `word` (or `v#`: `v` and digits) ends when it starts at `at`, or -1. */
function wordEnd(text: string, at: number, word: string): number {
  if (word !== 'v#') return text.startsWith(word, at) ? at + word.length : -1
  if (text.charCodeAt(at) !== 118 /* v */) return -1
  let end = at + 1
  while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++
  return end > at + 1 ? end : -1
}

/** Where the secret starts when `words` follow `at` (each after a separator, one after the last), or -1. */
function afterPath(text: string, at: number, words: readonly string[]): number {
  let i = at
  for (const word of words) {
    const sep = separatorAt(text, i)
    if (sep === 0) return -1
    i = wordEnd(text, i + sep, word)
    if (i === -1) return -1
  }
  const sep = separatorAt(text, i)
  return sep === 0 ? -1 : i + sep
}

/** Characters that end a URL in text: blanks, quotes, brackets closing it, `?`/`#` (the path ends), `&` (a URL inside a query). */
function endsPath(code: number): boolean {
  // whitespace " ' < > \ ` ) ] } | ? # &
  return (
    code <= 32 ||
    code === 34 ||
    code === 39 ||
    code === 60 ||
    code === 62 ||
    code === 92 ||
    code === 96 ||
    code === 41 ||
    code === 93 ||
    code === 125 ||
    code === 124 ||
    code === 63 ||
    code === 35 ||
    code === 38
  )
}

function pathEnd(text: string, start: number): number {
  let end = start
  // `\/` inside a JSON text is a separator, not the end of the URL.
  while (end < text.length && (!endsPath(text.charCodeAt(end)) || (text.charCodeAt(end) === 92 && text.charCodeAt(end + 1) === 47))) end++
  return end
}

function findPathWebhooks(text: string, ranges: Ranges): void {
  for (const { host, paths } of PATH_WEBHOOKS) {
    let from = 0
    for (let at = text.indexOf(host, from); at !== -1; at = text.indexOf(host, from)) {
      from = at + host.length
      for (const words of paths) {
        const start = afterPath(text, from, words)
        if (start === -1) continue
        const end = pathEnd(text, start)
        addRange(ranges, start, end)
        from = Math.max(from, end)
        break
      }
    }
  }
}

/** `?sig=` / `&sig=`: the signature of a signed URL (Power Automate, Logic Apps, Azure SAS). */
function findSignatures(text: string, ranges: Ranges): void {
  let from = 0
  for (let at = text.indexOf('sig=', from); at !== -1; at = text.indexOf('sig=', from)) {
    const start = at + 4
    from = start
    const before = text.charCodeAt(at - 1)
    if (before !== 63 /* ? */ && before !== 38 /* & */) continue
    let end = start
    while (end < text.length && !endsPath(text.charCodeAt(end))) end++
    addRange(ranges, start, end)
    from = end
  }
}

/** Adds the secret span of every webhook URL in `text` to `ranges`. */
export function findWebhookUrls(text: string, ranges: Ranges): void {
  findPathWebhooks(text, ranges)
  findSignatures(text, ranges)
}
