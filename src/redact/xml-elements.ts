/**
 * Secrets in XML (SOAP bodies, config files) that is not parsed:
 * `<password>…</password>`, `<ns:ApiKey>…</ns:ApiKey>`. The element name
 * decides, by the same words as object keys.
 */
import { addRange, type Ranges } from './ranges.js'

// Bounded: an element name and its attributes are short, so a failed match costs O(1).
const OPEN_TAG = /<([A-Za-z_][\w.:-]{0,63})(?:\s[^<>]{0,512})?>/g

/**
 * `<password>…</password>`, `<ns:ApiKey>…</ns:ApiKey>`: the text of an
 * element named like a secret. The text is what lies before the next `<`,
 * which must open the matching closing tag; so each `<` is read once.
 */
export function findSecretElements(text: string, ranges: Ranges, isSecretName: (name: string) => boolean): void {
  if (!text.includes('</')) return
  OPEN_TAG.lastIndex = 0
  for (let match = OPEN_TAG.exec(text); match !== null; match = OPEN_TAG.exec(text)) {
    const tag = match[1]!
    const local = tag.slice(tag.lastIndexOf(':') + 1)
    if (!isSecretName(local)) continue
    const start = OPEN_TAG.lastIndex
    const close = text.indexOf('<', start)
    if (close === -1 || !text.startsWith(`</${tag}`, close)) continue
    addRange(ranges, start, close)
    OPEN_TAG.lastIndex = close
  }
}
