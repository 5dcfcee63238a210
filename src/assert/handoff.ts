/**
 * Multi-agent handoffs: the child trace names its parent, and the context the
 * parent handed over (`handoff_context`) has the fields, shape and values the
 * child needs.
 */
import type { JsonObject, Trace } from '../trace/types.js'
import { requireNames, requireObject, requireOptions, toTrace, type TraceSource } from './arguments.js'
import { matches } from './equality.js'
import { closestName } from './facts.js'
import { fail } from './fail.js'
import { render } from './render.js'
import { stringDiffLines } from './string-diff.js'
import { checkSchema, formatIssues, type SchemaOptions } from './schema.js'

export interface AllowedFieldsOptions {
  /** The keys `handoff_context` may have. Required. @example { allowed: ['order_id', 'reason'] } */
  allowed: readonly string[]
}

export interface PreservedFieldsOptions {
  /** The keys whose values must be equal on both sides. Required. @example { fields: ['order_id'] } */
  fields: readonly string[]
}

const NO_CONTEXT_CAUSE = 'the session was opened without a handoff context: pass session(name, { handoffContext: { ... } }, fn)'

function handoffContext(trace: Trace): JsonObject {
  const context: unknown = trace.handoff_context
  if (context === null || context === undefined) fail(trace, `"${trace.name}" has no handoff_context set`, { causes: [NO_CONTEXT_CAUSE] })
  if (typeof context !== 'object' || Array.isArray(context)) {
    fail(trace, `"${trace.name}" handoff_context must be an object, got ${Array.isArray(context) ? 'array' : typeof context}`)
  }
  return context as JsonObject
}

function keysOf(context: JsonObject): string {
  return `handoff_context has keys ${render(Object.keys(context))}`
}

/**
 * Passes when the trace's `parent_trace_id` is the parent's trace id.
 * @example assertHandoffReceived(researcherTrace, plannerTrace)
 */
export function assertHandoffReceived(source: TraceSource, parent: TraceSource): void {
  const trace = toTrace('assertHandoffReceived', source)
  const parentTrace = toTrace('assertHandoffReceived', parent, 'parent')
  const expected = `the expected parent is "${parentTrace.name}" (trace_id ${parentTrace.trace_id})`
  if (trace.parent_trace_id === null || trace.parent_trace_id === undefined) {
    fail(trace, `"${trace.name}" has no parent_trace_id set`, {
      causes: [`open the child session inside the parent's session, or pass { parentTraceId } to session(); ${expected}`],
    })
  }
  if (trace.parent_trace_id === parentTrace.trace_id) return
  fail(trace, `"${trace.name}" parent_trace_id "${trace.parent_trace_id}" does not match expected parent "${parentTrace.trace_id}"`, {
    causes: [expected],
    diff: { actual: trace.parent_trace_id, expected: parentTrace.trace_id },
  })
}

/**
 * Passes when each field is present in `handoff_context` and not null.
 * @example assertHandoffHasFields(trace, ['order_id', 'reason'])
 */
export function assertHandoffHasFields(source: TraceSource, fields: readonly string[]): void {
  const trace = toTrace('assertHandoffHasFields', source)
  const names = requireNames('assertHandoffHasFields', 'fields', fields)
  const context = handoffContext(trace)
  const missing = names.filter((field) => context[field] === null || context[field] === undefined)
  if (missing.length === 0) return
  const typos = missing.flatMap((field) => {
    const near = closestName(field, Object.keys(context))
    return near === undefined ? [] : [`"${field}" is missing, but "${near}" is there: did you mean ${near}?`]
  })
  fail(trace, `"${trace.name}" handoff_context missing or null for field(s): ${render(missing)}`, { causes: [...typos, keysOf(context)] })
}

/**
 * Passes when `handoff_context` is valid against `schema`: a JSON Schema or a
 * Standard Schema (zod, valibot, arktype). The failure lists every issue.
 * @example assertHandoffMatches(trace, { schema: z.object({ order_id: z.string() }) })
 */
export function assertHandoffMatches(source: TraceSource, options: SchemaOptions): void {
  const fn = 'assertHandoffMatches'
  const trace = toTrace(fn, source)
  const { schema } = requireOptions(fn, options, ['schema'])
  const context = handoffContext(trace)
  const issues = checkSchema(fn, schema, context, 'handoff_context')
  if (issues.length === 0) return
  fail(trace, `"${trace.name}" handoff_context does not match the schema: ${formatIssues(issues)}`, { causes: [keysOf(context)] })
}

/**
 * Passes when `handoff_context` has no key outside `allowed` (nothing leaked
 * to the child agent that it should not see).
 * @example assertNoExtraFields(trace, { allowed: ['order_id', 'reason'] })
 */
export function assertNoExtraFields(source: TraceSource, options: AllowedFieldsOptions): void {
  const fn = 'assertNoExtraFields'
  const trace = toTrace(fn, source)
  const allowed = requireNames(fn, 'allowed', requireOptions(fn, options, ['allowed']).allowed)
  const context = handoffContext(trace)
  const extras = Object.keys(context).filter((key) => !allowed.includes(key))
  if (extras.length === 0) return
  fail(trace, `unexpected handoff fields: ${render(extras)}`, { causes: [`allowed: ${render(allowed)}`] })
}

/**
 * Passes when each field has the same value (deep equality, asymmetric
 * matchers allowed) in `source` and in the trace's `handoff_context`.
 * @example assertContextPreserved(trace, plannerState, { fields: ['order_id'] })
 */
export function assertContextPreserved(sourceTrace: TraceSource, source: Readonly<Record<string, unknown>>, options: PreservedFieldsOptions): void {
  const fn = 'assertContextPreserved'
  const trace = toTrace(fn, sourceTrace)
  const values = requireObject(fn, 'source', source)
  const fields = requireNames(fn, 'fields', requireOptions(fn, options, ['fields']).fields)
  const context = handoffContext(trace)
  for (const field of fields) {
    if (!Object.hasOwn(values, field)) fail(trace, `field "${field}" not found in source`, { causes: [`source has keys ${render(Object.keys(values))}`] })
    if (!Object.hasOwn(context, field)) fail(trace, `field "${field}" not found in handoff_context`, { causes: [keysOf(context)] })
    if (!matches(values[field], context[field])) {
      const lines = stringDiffLines(`${field} ([-source-]{+received+}):`, values[field], context[field])
      fail(trace, `field "${field}" not preserved: source=${render(values[field])}, received=${render(context[field])}`, {
        ...(lines === undefined ? {} : { causes: [`"${field}" differs from the source as shown below\n${lines.join('\n')}`] }),
        diff: { actual: context[field], expected: values[field] },
      })
    }
  }
}
