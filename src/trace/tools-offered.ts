/**
 * Every distinct tool a run offered its model, read from its `tool_sets`:
 * what a tool contract snapshots, and what tests look at.
 */
import { compareTools } from './tool-sets.js'
import type { ToolDefinition, Trace } from './types.js'

/**
 * The tools `trace` offered, each distinct definition once, by kind then
 * name; a name offered with two different definitions (a description
 * reworded between two calls) appears twice, ordered by their JSON. Empty for
 * a trace that recorded no tools (one written by reagent-flow 0.5).
 */
export function toolsOffered(trace: Pick<Trace, 'tool_sets'>): ToolDefinition[] {
  const distinct = new Map<string, ToolDefinition>()
  for (const tools of Object.values(trace.tool_sets ?? {})) {
    for (const tool of tools) {
      const key = JSON.stringify(tool)
      if (!distinct.has(key)) distinct.set(key, tool)
    }
  }
  return [...distinct.values()].sort(compareTools)
}
