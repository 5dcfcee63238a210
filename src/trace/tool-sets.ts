/**
 * The tools one model request offered, in the one form the trace keeps
 * them: every definition with its keys sorted (its JSON Schemas too), the
 * tools sorted by kind then name, and the set's id, `ts_` and the first 12
 * hex digits of the SHA-256 of that canonical JSON. The same tools give the
 * same id in every run and process, so a trace (and a contract built from
 * it) never churns on the order an SDK happened to list them in.
 */
import { createHash } from 'node:crypto'
import { setOwn, toJsonValue } from './serialize.js'
import type { JsonObject, JsonValue, ToolDefinition, ToolKind } from './types.js'

/** A tool as an adapter read it from its SDK: the schemas may be anything JSON can hold (they are converted, never refused). */
export interface ToolDefinitionInput {
  name: string
  kind: ToolKind
  description?: string | null | undefined
  parameters?: unknown
  result?: unknown
  server?: string | undefined
}

/** A set of tools as the trace stores it: its id and its definitions, canonical. */
export interface ToolSet {
  readonly id: string
  readonly tools: ToolDefinition[]
}

/** A copy of `value` with every object's keys sorted (plain objects, `__proto__` kept as data). */
function sorted(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(sorted)
  const out: JsonObject = {}
  for (const key of Object.keys(value).sort()) setOwn(out, key, sorted(value[key] as JsonValue))
  return out
}

/** A schema as JSON with sorted keys; null when there is none. */
function schemaOf(value: unknown): JsonObject | null {
  if (value === undefined || value === null) return null
  const json = sorted(toJsonValue(value))
  // The field holds an object; anything else (a string, `true`) is kept as given under `$given`, never dropped.
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? json : { $given: json }
}

/** One definition, canonical: keys in sorted order, `result` and `server` only when known. */
export function toolDefinitionOf(input: ToolDefinitionInput): ToolDefinition {
  const definition: ToolDefinition = {
    description: typeof input.description === 'string' ? input.description : null,
    kind: input.kind,
    name: input.name,
    parameters: schemaOf(input.parameters),
  }
  const result = schemaOf(input.result)
  if (result !== null) definition.result = result
  if (typeof input.server === 'string') definition.server = input.server
  return definition
}

const KIND_ORDER: readonly ToolKind[] = ['function', 'handoff', 'mcp', 'provider']

/** Tools by kind, then name, then (one name with two definitions) their text: a fixed order. */
export function compareTools(a: ToolDefinition, b: ToolDefinition): number {
  const byKind = KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind)
  if (byKind !== 0) return byKind
  if (a.name !== b.name) return a.name < b.name ? -1 : 1
  // One name offered twice with two definitions: ordered by their text, so the order is still fixed.
  const [left, right] = [JSON.stringify(a), JSON.stringify(b)]
  return left < right ? -1 : left > right ? 1 : 0
}

/** The id of a set of canonical definitions, already sorted. */
function idOf(tools: readonly ToolDefinition[]): string {
  return `ts_${createHash('sha256').update(JSON.stringify(tools)).digest('hex').slice(0, 12)}`
}

/** The canonical set of `inputs` and its id. */
export function toolSetOf(inputs: readonly ToolDefinitionInput[]): ToolSet {
  const tools = inputs.map(toolDefinitionOf).sort(compareTools)
  return { id: idOf(tools), tools }
}
