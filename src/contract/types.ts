/** What a tool-contract diff is made of. */

/**
 * - `breaking`: what worked before may not now (a tool or parameter removed or
 *   renamed, a parameter retyped, a new required parameter, an enum narrowed,
 *   a result schema changed incompatibly, a kind changed);
 * - `compatible`: more is accepted than before (a new tool, a new optional
 *   parameter, an enum widened, a constraint loosened);
 * - `wording`: text the model reads changed (a description, a title): it
 *   steers the model as much as a schema does.
 */
export type ChangeClass = 'breaking' | 'compatible' | 'wording'

export const CHANGE_CLASSES: readonly ChangeClass[] = ['breaking', 'compatible', 'wording']

/** One change between two sets of tools. */
export interface ContractChange {
  class: ChangeClass
  /** The tool, as its contract names it: `tool "search"`, `handoff "billing"`, `MCP tool "read" (server "files")`. */
  tool: string
  /** What changed, after the tool's name: `parameter "order_id" removed`. */
  what: string
  /** A wording change: the text before (empty when there was none) and after. */
  before?: string
  after?: string
}

export interface ContractDiff {
  /** True when nothing differs. */
  equal: boolean
  changes: ContractChange[]
  /** Schemas of the new side that are not valid JSON Schema, each a sentence: flagged, compared as given. */
  invalid: string[]
}
