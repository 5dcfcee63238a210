/**
 * A tool-contract file: the tools a run offered the model, committed beside
 * the tests like a golden. `{ "contract_version": 1, "name": ..., "tools": [...] }`,
 * keys sorted, tools by kind then name, 2-space JSON and a final newline, so
 * the same tools always give the same bytes and nothing churns in review.
 */
import stringify from 'fast-json-stable-stringify'
import { ContractFileError } from '../errors/index.js'
import type { JsonValue, ToolDefinition } from '../trace/types.js'

export const CONTRACT_VERSION = 1

export interface ToolContract {
  contract_version: typeof CONTRACT_VERSION
  /** The run's name (a run set's, for a repeated run). */
  name: string
  tools: ToolDefinition[]
}

const KINDS: ReadonlySet<string> = new Set(['function', 'handoff', 'mcp', 'provider'])

/** `value` with every object's keys sorted, so JSON.stringify writes it in one canonical order. */
function sortedKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortedKeys)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys(value[key] as JsonValue)]),
  )
}

/** Tools in a contract's order: by kind, then name, then their canonical JSON (one name with two definitions). */
export function sortTools(tools: readonly ToolDefinition[]): ToolDefinition[] {
  const keyed = tools.map((tool) => ({ tool, key: [tool.kind, tool.name, stringify(tool)] as const }))
  keyed.sort((a, b) => {
    for (let i = 0; i < 3; i++) if (a.key[i] !== b.key[i]) return a.key[i]! < b.key[i]! ? -1 : 1
    return 0
  })
  return keyed.map(({ tool }) => tool)
}

/** The bytes of the contract of run `name` offering `tools`. */
export function renderContract(name: string, tools: readonly ToolDefinition[]): string {
  const contract: ToolContract = { contract_version: CONTRACT_VERSION, name, tools: sortTools(tools) }
  return `${JSON.stringify(sortedKeys(contract as unknown as JsonValue), null, 2)}\n`
}

/** Why `value` is not a tool definition, or undefined when it is one. */
function toolProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'is not an object'
  const tool = value as Record<string, unknown>
  if (typeof tool.name !== 'string' || tool.name === '') return 'has no "name"'
  if (typeof tool.kind !== 'string' || !KINDS.has(tool.kind)) return `has "kind" ${JSON.stringify(tool.kind)}, not one of ${[...KINDS].join(', ')}`
  if (tool.description !== null && typeof tool.description !== 'string') return 'has a "description" that is neither a string nor null'
  if (tool.parameters !== null && (typeof tool.parameters !== 'object' || Array.isArray(tool.parameters)))
    return 'has "parameters" that are neither an object nor null'
  return undefined
}

/**
 * The contract `text` (the file `path`) holds. Text that is not JSON, of
 * another `contract_version`, or without a list of tools is a
 * `ContractFileError` naming the file.
 */
export function parseContract(path: string, text: string): ToolContract {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ContractFileError(path, `it is not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ContractFileError(path, 'it holds no JSON object')
  const file = value as Record<string, unknown>
  if (file.contract_version !== CONTRACT_VERSION) {
    const found = file.contract_version === undefined ? 'it has no "contract_version"' : `it has "contract_version" ${JSON.stringify(file.contract_version)}`
    throw new ContractFileError(path, `${found}, and this version of reagent-flow reads contract_version ${CONTRACT_VERSION}`)
  }
  if (typeof file.name !== 'string') throw new ContractFileError(path, 'it has no "name"')
  if (!Array.isArray(file.tools)) throw new ContractFileError(path, 'its "tools" is not a list')
  file.tools.forEach((tool: unknown, at: number) => {
    const problem = toolProblem(tool)
    if (problem !== undefined) throw new ContractFileError(path, `tools[${at}] ${problem}`)
  })
  return { contract_version: CONTRACT_VERSION, name: file.name, tools: file.tools as ToolDefinition[] }
}
