/**
 * The tools a request offers, read once per distinct list: agents send the
 * same tools array with every call of a run, so the set (its definitions
 * normalised and hashed, see trace/tool-sets.ts) is kept per array object
 * and reused while the array still holds the same tools. Reading and hashing
 * a few kilobytes of schemas for every call of a long run is what this spares.
 */
import { toolSetOf, type ToolDefinitionInput, type ToolSet } from '../trace/tool-sets.js'

/** How an adapter reads one tool of its SDK: its definition, or undefined for an entry that is not a tool. */
export type ToolReader = (tool: unknown) => ToolDefinitionInput | undefined

/** The tools of a request: the SDK's own list, and how to read one of its entries. */
export interface OfferedTools {
  readonly list: readonly unknown[]
  readonly read: ToolReader
}

interface Known {
  readonly read: ToolReader
  /** The entries the set was read from: a list pushed to or changed in place since is read again. */
  readonly items: readonly unknown[]
  readonly set: ToolSet | undefined
}

const known = new WeakMap<readonly unknown[], Known>()

function isSameList(known: Known, list: readonly unknown[], read: ToolReader): boolean {
  if (known.read !== read || known.items.length !== list.length) return false
  for (let i = 0; i < list.length; i++) if (known.items[i] !== list[i]) return false
  return true
}

/** The set `offered` amounts to; undefined when it holds no tool. */
export function toolSetFor({ list, read }: OfferedTools): ToolSet | undefined {
  const seen = known.get(list)
  if (seen !== undefined && isSameList(seen, list, read)) return seen.set
  const items = list.slice()
  const inputs: ToolDefinitionInput[] = []
  for (const item of items) {
    const input = read(item)
    if (input !== undefined) inputs.push(input)
  }
  const set = inputs.length === 0 ? undefined : toolSetOf(inputs)
  known.set(list, { read, items, set })
  return set
}
