/** Reading reagent-flow's own attributes (`reagent_flow.*`, see attributes.ts), each a JSON object. */
import type { AttributeValue } from './otlp-json.js'

/** A reagent-flow attribute's JSON object; undefined when absent or not an object. */
export function ownObject(value: AttributeValue | undefined): Record<string, unknown> | undefined {
  if (typeof value !== 'string') return undefined
  try {
    const parsed: unknown = JSON.parse(value)
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
