/**
 * The shape of each journal record a reader applies, checked before it is
 * applied: a record of the wrong type (hand-edited, another tool's, a bad
 * disk) must be named, never crash a reader far from the file nor make the
 * run vanish from `list`, `show`, `validate` and `resume()`.
 */
import type { TraceStatus } from '../trace/types.js'

type Fields = Record<string, unknown>

const CLOSED_STATUSES: ReadonlySet<string> = new Set<Exclude<TraceStatus, 'active'>>(['completed', 'failed', 'cancelled', 'interrupted'])

function isObject(value: unknown): value is Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

function turnProblem(turn: unknown): string | undefined {
  if (!isObject(turn)) return 'its "turn" is not an object'
  if (!isCount(turn.index)) return 'its turn.index is not a whole number'
  const call = turn.llm_call
  if (!isObject(call)) return 'its turn.llm_call is not an object'
  if (call.messages !== null && call.messages !== undefined && !Array.isArray(call.messages)) return 'its turn.llm_call.messages is not a list'
  if (!Array.isArray(call.tool_calls) || !call.tool_calls.every(isObject)) return 'its turn.llm_call.tool_calls is not a list of objects'
  if (!Array.isArray(turn.tool_results)) return 'its turn.tool_results is not a list'
  return undefined
}

function resultProblem(result: unknown): string | undefined {
  return isObject(result) && typeof result.call_id === 'string' ? undefined : 'its "result" is not a tool result object'
}

/**
 * What is wrong with `record` (a parsed line of a known kind), as the end of
 * a sentence (`a "turn" record whose …`); undefined when it can be applied.
 * Kinds a reader does not know are not checked: they are skipped.
 */
export function recordProblem(record: Fields & { kind: string }): string | undefined {
  switch (record.kind) {
    case 'turn':
      return turnProblem(record.turn)
    case 'result':
      if (!isCount(record.turn)) return 'its "turn" is not a whole number'
      if (typeof record.duration_ms !== 'number') return 'its "duration_ms" is not a number'
      return resultProblem(record.result)
    case 'orphan':
      return resultProblem(record.result)
    case 'tool_set':
      if (typeof record.id !== 'string') return 'its "id" is not a string'
      return Array.isArray(record.tools) && record.tools.every(isObject) ? undefined : 'its "tools" is not a list of objects'
    case 'exchange':
      if (typeof record.endpoint !== 'string') return 'its "endpoint" is not a string'
      return isObject(record.response) ? undefined : 'its "response" is not an object'
    case 'tool':
      if (typeof record.name !== 'string') return 'its "name" is not a string'
      return typeof record.async === 'boolean' ? undefined : 'its "async" is not true or false'
    case 'close':
      if (typeof record.status !== 'string' || !CLOSED_STATUSES.has(record.status)) return 'its "status" is not completed, failed, cancelled or interrupted'
      return typeof record.ended_at === 'number' && Number.isFinite(record.ended_at) ? undefined : 'its "ended_at" is not a number'
    default:
      return undefined
  }
}
