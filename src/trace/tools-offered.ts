/**
 * `toolsOffered(trace)`: every distinct tool a run offered the model, read
 * from the trace's `tool_sets` (each set is stored once, however many calls
 * offered it).
 */
import stringify from 'fast-json-stable-stringify'
import type { ToolDefinition, Trace } from './types.js'

/** Tools in the order contracts and tool sets keep them: by kind, then name, then their canonical JSON (two definitions of one name). */
function compareTools(a: ToolDefinition, b: ToolDefinition): number {
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1
  if (a.name !== b.name) return a.name < b.name ? -1 : 1
  const [ja, jb] = [stringify(a), stringify(b)]
  return ja < jb ? -1 : ja > jb ? 1 : 0
}

/**
 * Every distinct tool offered in the run, by kind then name; a name offered
 * with two definitions (a description reworded between requests) appears
 * twice. A trace without `tool_sets` offered none that were recorded: `[]`.
 */
export function toolsOffered(trace: Trace): ToolDefinition[] {
  const sets = trace.tool_sets
  if (sets === null || typeof sets !== 'object') return []
  const byJson = new Map<string, ToolDefinition>()
  for (const tools of Object.values(sets)) {
    if (!Array.isArray(tools)) continue
    for (const tool of tools) byJson.set(stringify(tool), tool)
  }
  return [...byJson.values()].sort(compareTools)
}
