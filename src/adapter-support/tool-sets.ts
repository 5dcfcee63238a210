/**
 * Tools offered without a model call: an MCP server's listing. Stored on
 * the trace the one way every set is (trace/tool-sets.ts makes the set and
 * its id; the session keeps it once and tells the journal), so a listing and
 * a model request that offer the same tools share one set.
 */
import type { Session } from '../session/session.js'
import { internals } from '../session/internals.js'
import { toolSetOf, type ToolDefinitionInput } from '../trace/tool-sets.js'
import type { ToolDefinition } from '../trace/types.js'

/** The set in its stored form: canonical definitions, by kind then name. */
export function normalToolSet(tools: readonly ToolDefinitionInput[]): ToolDefinition[] {
  return toolSetOf(tools).tools
}

/** Keeps `tools` on the session's trace as one set (once, however often it is offered) and returns its id. */
export function offerToolSet(s: Session, tools: readonly ToolDefinitionInput[]): string {
  const set = toolSetOf(tools)
  s[internals].keepToolSet(set)
  return set.id
}
