/**
 * The tools offered in a run, kept on its trace: `tool_sets`, from a set's
 * id to its tool definitions, each distinct set stored once however often it
 * is offered. The id is `ts_` and the first 12 hex digits of the SHA-256 of
 * the set's canonical JSON (keys sorted, tools by kind then name), so the same
 * tools have the same id in every run and process.
 */
import { createHash } from 'node:crypto'
import type { Session } from '../session/session.js'
import { toJsonValue } from '../trace/serialize.js'
import type { JsonValue, ToolDefinition } from '../trace/types.js'

/** `value` with the keys of every object in it sorted, as plain objects. */
function sortedKeys(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(sortedKeys)
  const out: Record<string, JsonValue> = {}
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys(value[key] as JsonValue)
  return out
}

function byKindThenName(a: ToolDefinition, b: ToolDefinition): number {
  return a.kind === b.kind ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.kind < b.kind ? -1 : 1
}

/** The set in its stored form: every definition's keys (its schemas' too) sorted, the tools by kind then name. */
export function normalToolSet(tools: readonly ToolDefinition[]): ToolDefinition[] {
  return tools.map((tool) => sortedKeys(toJsonValue(tool)) as unknown as ToolDefinition).sort(byKindThenName)
}

/** The id of a set in its stored form. */
export function toolSetId(normal: readonly ToolDefinition[]): string {
  return `ts_${createHash('sha256').update(JSON.stringify(normal)).digest('hex').slice(0, 12)}`
}

/** Keeps `tools` on the session's trace as one set (once, however often it is offered) and returns its id. */
export function offerToolSet(s: Session, tools: readonly ToolDefinition[]): string {
  const normal = normalToolSet(tools)
  const id = toolSetId(normal)
  const sets = (s.trace.tool_sets ??= {})
  if (!Object.hasOwn(sets, id)) sets[id] = normal
  return id
}
