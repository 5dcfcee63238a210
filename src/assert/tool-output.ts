/** `assertToolOutputMatches`: every successful result of a tool has the expected shape. */
import { oneLine } from '../report/format-value.js'
import { toTrace, requireOptions, requireToolName, type TraceSource } from './arguments.js'
import { didYouMean, whatWasCalled } from './facts.js'
import { fail } from './fail.js'
import { checkSchema, formatIssues, type SchemaOptions } from './schema.js'
import { callsOf } from './tool-calls.js'

/**
 * Passes when every successful result of `tool` is valid against `schema`
 * (JSON Schema or Standard Schema); results with an error are skipped, and
 * at least one successful result is required.
 * @example assertToolOutputMatches(trace, 'lookup_order', { schema: { type: 'object', required: ['amount'] } })
 */
export function assertToolOutputMatches(source: TraceSource, tool: string, options: SchemaOptions): void {
  const fn = 'assertToolOutputMatches'
  const trace = toTrace(fn, source)
  requireToolName(fn, 'tool', tool)
  const { schema } = requireOptions(fn, options, ['schema'])
  const outputs = callsOf(trace, tool).flatMap(({ call, turn, results }) =>
    results.filter((result) => result.error === null).map((result) => ({ callId: call.call_id, turn: turn.index, value: result.result })),
  )
  if (outputs.length === 0) {
    fail(trace, `"${tool}" was never called or all calls errored`, { tool, causes: [didYouMean(trace, tool)], facts: [whatWasCalled(trace)] })
  }
  const failing = outputs.map((output) => ({ ...output, issues: checkSchema(fn, schema, output.value, 'result') })).filter((output) => output.issues.length > 0)
  const first = failing[0]
  if (first === undefined) return
  const others =
    failing.length > 1 ? `${failing.length} of ${outputs.length} results fail the schema (turns ${failing.map((f) => f.turn).join(', ')})` : undefined
  fail(trace, `tool "${tool}" result does not match the schema (call_id: ${first.callId}, turn ${first.turn}): ${formatIssues(first.issues)}`, {
    tool,
    causes: [`${tool} returned ${oneLine(first.value, 100)} in turn ${first.turn}`, others],
  })
}
