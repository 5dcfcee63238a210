/**
 * How a scripted answer is cut into stream deltas: text word by word (with
 * the spaces after each word), JSON arguments in short pieces, so a stream
 * has several deltas as a provider's has, and always the same ones.
 */

const JSON_PIECE_LENGTH = 8

/** `"It is sunny."` → `["It ", "is ", "sunny."]`; no deltas for empty text. */
export function textDeltas(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? []
}

/** `'{"city":"Paris"}'` → `['{"city":', '"Paris"}']`. */
export function jsonDeltas(json: string): string[] {
  const pieces: string[] = []
  for (let i = 0; i < json.length; i += JSON_PIECE_LENGTH) pieces.push(json.slice(i, i + JSON_PIECE_LENGTH))
  return pieces
}
