/**
 * What the Agents SDK adapter's files share: the adapter's name, and
 * readers for the SDK's objects, read defensively (a custom `Model` may hand
 * back less than the SDK's own models do). The SDK's types describe far more
 * than is read here.
 */
export const ADAPTER = 'reagent-flow/openai-agents'

/** Reads a property of a value that may be anything. */
export function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

/** A plain JSON object parsed from `text`, or undefined. */
export function parseObject(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
