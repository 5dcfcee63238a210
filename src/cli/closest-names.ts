/**
 * "Did you mean": the run names closest to one that matched nothing, for
 * the message of a run that was not found. A name containing what was typed
 * comes first; then names (or one of their ` > ` parts: the test, the
 * session) within a few edits of it.
 */
import { editDistance } from '../report/edit-distance.js'

/** How many names a message suggests. */
const SUGGESTED = 3

/** How far `name` is from `typed` (both lower case): 0 when it contains it. */
function distance(typed: string, name: string): number {
  if (name.includes(typed)) return 0
  return Math.min(...[name, ...name.split(' > ')].map((part) => editDistance(typed, part)))
}

/** Up to three of `names` close to `typed` (any case), closest first. */
export function closestNames(typed: string, names: Iterable<string>): string[] {
  const wanted = typed.toLowerCase()
  const limit = Math.max(2, Math.floor(wanted.length / 3))
  const scored: Array<{ name: string; score: number }> = []
  for (const name of new Set(names)) {
    const score = distance(wanted, name.toLowerCase())
    if (score <= limit) scored.push({ name, score })
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return scored.slice(0, SUGGESTED).map((entry) => entry.name)
}
