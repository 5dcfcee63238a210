/**
 * The tools a request offers, read once per distinct list: agents send the
 * same tools with every call of a run, so the set (its definitions
 * normalised and hashed, see trace/tool-sets.ts) is kept per array object,
 * reused while the array still holds the same tools, and, for an SDK that
 * builds a new array for every call (the AI SDK, the Agents SDK), per text
 * of the list. Reading and hashing a few kilobytes of schemas for every call
 * of a long run is what this spares (decision note 075 has the figures).
 */
import { toolSetOf, type ToolDefinitionInput, type ToolSet } from '../trace/tool-sets.js'

/** How an adapter reads one tool of its SDK: its definition, or undefined for an entry that is not a tool. */
export type ToolReader = (tool: unknown) => ToolDefinitionInput | undefined

/** The tools of a request: the SDK's own list, and how to read one of its entries. */
export interface OfferedTools {
  readonly list: readonly unknown[]
  readonly read: ToolReader
  /**
   * The list is JSON data, as sent on the wire (a request body, the AI SDK's
   * call options, the Agents SDK's serialized tools): a new list with the
   * same JSON text is the same set. Not for lists holding schema objects
   * (zod), whose text need not say what their JSON Schema is.
   */
  readonly isWireData?: boolean
}

interface Known {
  readonly read: ToolReader
  /** The entries the set was read from: a list pushed to or changed in place since is read again. */
  readonly items: readonly unknown[]
  readonly set: ToolSet | undefined
}

const byList = new WeakMap<readonly unknown[], Known>()
/** Sets by the JSON text of the list they were read from, for lists built anew per call; cleared past MAX_TEXTS. */
const byText = new Map<string, { read: ToolReader; set: ToolSet | undefined }>()
const MAX_TEXTS = 256

function isSameList(known: Known, list: readonly unknown[], read: ToolReader): boolean {
  if (known.read !== read || known.items.length !== list.length) return false
  for (let i = 0; i < list.length; i++) if (known.items[i] !== list[i]) return false
  return true
}

/** The JSON text of a list of wire data, or undefined when it cannot be written. */
function textOf(list: readonly unknown[]): string | undefined {
  try {
    return JSON.stringify(list)
  } catch {
    return undefined
  }
}

function readSet(list: readonly unknown[], read: ToolReader): ToolSet | undefined {
  const inputs: ToolDefinitionInput[] = []
  for (const item of list) {
    const input = read(item)
    if (input !== undefined) inputs.push(input)
  }
  return inputs.length === 0 ? undefined : toolSetOf(inputs)
}

/** The set `offered` amounts to; undefined when it holds no tool. */
export function toolSetFor({ list, read, isWireData = false }: OfferedTools): ToolSet | undefined {
  const seen = byList.get(list)
  if (seen !== undefined && isSameList(seen, list, read)) return seen.set
  const items = list.slice()
  const text = isWireData ? textOf(items) : undefined
  const known = text === undefined ? undefined : byText.get(text)
  const set = known !== undefined && known.read === read ? known.set : readSet(items, read)
  if (text !== undefined && known === undefined) {
    if (byText.size >= MAX_TEXTS) byText.clear()
    byText.set(text, { read, set })
  }
  byList.set(list, { read, items, set })
  return set
}
