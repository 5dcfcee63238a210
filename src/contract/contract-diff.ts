/**
 * `diffToolContracts(expected, actual)`: two sets of tool definitions (a
 * contract and the tools a run offered, or two of either) compared tool by
 * tool, each change classified (types.ts). Tools are matched by name; a tool
 * gone and a tool new with the same kind and parameters is a rename.
 */
import stringify from 'fast-json-stable-stringify'
import { jsonSchemaProblem } from '../trace/validate.js'
import type { JsonObject, ToolDefinition } from '../trace/types.js'
import { sortTools } from './contract-file.js'
import { compareSchemas, type Polarity } from './schema-diff.js'
import type { ContractChange, ContractDiff } from './types.js'

/** A tool as the diff names it. */
export function toolLabel(tool: ToolDefinition): string {
  const name = JSON.stringify(tool.name)
  switch (tool.kind) {
    case 'handoff':
      return `handoff ${name}`
    case 'mcp':
      return tool.server === undefined ? `MCP tool ${name}` : `MCP tool ${name} (server ${JSON.stringify(tool.server)})`
    case 'provider':
      return `provider tool ${name}`
    default:
      return `tool ${name}`
  }
}

/** Parameters that are none: an object schema with no properties, so a tool that gains some is compared property by property. */
const NO_PARAMETERS: JsonObject = { type: 'object', properties: {} }

/**
 * Why a tool's schema is not valid JSON Schema, or undefined. A schema the
 * SDK gave as something other than an object is recorded as `{ "$given": ... }`.
 */
function problemOf(schema: JsonObject | null | undefined): string | undefined {
  if (schema == null) return undefined
  if (Object.keys(schema).length === 1 && '$given' in schema) return `it was given as ${JSON.stringify(schema.$given)}, not as a schema object`
  return jsonSchemaProblem(schema)
}

/** Changes of one schema of a tool (its parameters or its result), the two sides valid or not. */
function schemaChanges(from: JsonObject, to: JsonObject, polarity: Polarity, tool: string): ContractChange[] {
  const subject = polarity === 'input' ? 'parameters' : 'result schema'
  if (stringify(from) === stringify(to)) return []
  const newProblem = problemOf(to)
  if (newProblem !== undefined) return [{ class: 'breaking', tool, what: `${subject} changed to a schema that is not valid JSON Schema (${newProblem})` }]
  const oldProblem = problemOf(from)
  if (oldProblem !== undefined)
    return [{ class: 'breaking', tool, what: `${subject} changed from a schema that is not valid JSON Schema (${oldProblem}), so not compared in detail` }]
  return compareSchemas(from, to, polarity).map((change) => ({ ...change, tool }))
}

/** What changed between two definitions of one tool name. */
function toolChanges(a: ToolDefinition, b: ToolDefinition): ContractChange[] {
  const tool = toolLabel(b)
  const out: ContractChange[] = []
  if (a.kind !== b.kind) out.push({ class: 'breaking', tool, what: `kind changed from ${a.kind} to ${b.kind}` })
  if (a.server !== b.server)
    out.push({ class: 'breaking', tool, what: `server changed from ${JSON.stringify(a.server ?? null)} to ${JSON.stringify(b.server ?? null)}` })
  if (a.description !== b.description) out.push({ class: 'wording', tool, what: 'description', before: a.description ?? '', after: b.description ?? '' })
  out.push(...schemaChanges(a.parameters ?? NO_PARAMETERS, b.parameters ?? NO_PARAMETERS, 'input', tool))
  if (a.result !== undefined && b.result === undefined) out.push({ class: 'breaking', tool, what: 'result schema removed' })
  else if (a.result === undefined && b.result !== undefined) out.push({ class: 'compatible', tool, what: 'result schema added' })
  else if (a.result !== undefined && b.result !== undefined) out.push(...schemaChanges(a.result, b.result, 'output', tool))
  return out
}

/** Pairs the definitions of one name on both sides: identical ones first, then the rest in order; the unpaired are gone or new. */
function pairUp(
  from: ToolDefinition[],
  to: ToolDefinition[],
): { pairs: Array<[ToolDefinition, ToolDefinition]>; gone: ToolDefinition[]; new: ToolDefinition[] } {
  const left = [...from]
  const right = [...to]
  for (let i = left.length - 1; i >= 0; i--) {
    const twin = right.findIndex((tool) => stringify(tool) === stringify(left[i]))
    if (twin >= 0) {
      left.splice(i, 1)
      right.splice(twin, 1)
    }
  }
  const n = Math.min(left.length, right.length)
  return { pairs: left.slice(0, n).map((tool, i) => [tool, right[i]!]), gone: left.slice(n), new: right.slice(n) }
}

/** Whether `b` is `a` renamed: the same kind and parameters (and, for tools without parameters, the same description). */
function isRenamed(a: ToolDefinition, b: ToolDefinition): boolean {
  if (a.kind !== b.kind || stringify(a.parameters) !== stringify(b.parameters)) return false
  return a.parameters !== null || a.description === b.description
}

/** Flags each schema of `tools` that is not valid JSON Schema. */
function invalidSchemas(tools: readonly ToolDefinition[]): string[] {
  return tools.flatMap((tool) =>
    (
      [
        ['parameters', tool.parameters],
        ['result schema', tool.result],
      ] as const
    ).flatMap(([subject, schema]) => {
      const problem = problemOf(schema)
      return problem === undefined ? [] : [`${toolLabel(tool)}: its ${subject} ${subject === 'parameters' ? 'are' : 'is'} not valid JSON Schema (${problem})`]
    }),
  )
}

/**
 * The classified changes from the tools `expected` to the tools `actual`,
 * tool by tool in name order, and the schemas of `actual` that are not valid
 * JSON Schema (flagged, never thrown).
 */
export function diffToolContracts(expected: readonly ToolDefinition[], actual: readonly ToolDefinition[]): ContractDiff {
  const byName = (tools: readonly ToolDefinition[]): Map<string, ToolDefinition[]> => {
    const map = new Map<string, ToolDefinition[]>()
    for (const tool of sortTools(tools)) map.set(tool.name, [...(map.get(tool.name) ?? []), tool])
    return map
  }
  const [before, after] = [byName(expected), byName(actual)]
  const names = [...new Set([...before.keys(), ...after.keys()])].sort()
  const gone: ToolDefinition[] = []
  const added: ToolDefinition[] = []
  const changed = new Map<string, ContractChange[]>()
  for (const name of names) {
    const paired = pairUp(before.get(name) ?? [], after.get(name) ?? [])
    changed.set(
      name,
      paired.pairs.flatMap(([a, b]) => toolChanges(a, b)),
    )
    gone.push(...paired.gone)
    added.push(...paired.new)
  }
  // A tool gone and one new that is it renamed: one breaking change, at the old name.
  for (const tool of gone) {
    const at = added.findIndex((candidate) => isRenamed(tool, candidate))
    const list = changed.get(tool.name) ?? []
    if (at < 0) list.push({ class: 'breaking', tool: toolLabel(tool), what: 'removed' })
    else {
      const [renamed] = added.splice(at, 1) as [ToolDefinition]
      list.push({ class: 'breaking', tool: toolLabel(tool), what: `renamed to ${JSON.stringify(renamed.name)}` })
      if (tool.description !== renamed.description) {
        list.push({ class: 'wording', tool: toolLabel(renamed), what: 'description', before: tool.description ?? '', after: renamed.description ?? '' })
      }
    }
    changed.set(tool.name, list)
  }
  for (const tool of added) changed.get(tool.name)?.push({ class: 'compatible', tool: toolLabel(tool), what: 'added' })
  const changes = names.flatMap((name) => changed.get(name) ?? [])
  return { equal: changes.length === 0, changes, invalid: invalidSchemas(actual) }
}
