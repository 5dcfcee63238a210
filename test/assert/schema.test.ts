import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { assertHandoffMatches, assertToolOutputMatches } from '../../src/entries/index.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'

const deploy = buildTrace('deployer', [{ text: 'Deploying.' }], {
  handoff_context: { service: 'api', ci: { coverage: '87%', passed: true }, approvers: ['ana', 7] },
})

const lookups = buildTrace('lookups', [
  { calls: [{ name: 'lookup_order', args: { id: '1' }, result: { id: '1', amount: 10 } }] },
  { calls: [{ name: 'lookup_order', args: { id: '2' }, result: { id: '2', amount: '12.50' } }] },
  { calls: [{ name: 'lookup_order', args: { id: '3' }, error: 'NotFound: order 3' }] },
  { calls: [{ name: 'lookup_order', args: { id: '4' }, result: { id: 4 } }] },
])

describe('schemas in assertions', () => {
  it('reads a JSON Schema, naming the path of each broken rule', () => {
    const schema = {
      type: 'object',
      properties: { ci: { type: 'object', properties: { coverage: { type: 'number' } } }, approvers: { type: 'array', items: { type: 'string' } } },
    }
    expect(failureOf(() => assertHandoffMatches(deploy, { schema })).assertion).toBe(
      '"deployer" handoff_context does not match the schema: handoff_context.ci.coverage: must be number; handoff_context.approvers[1]: must be string',
    )
  })

  it('reads a zod schema (Standard Schema), listing every issue with its path', () => {
    const schema = z.object({ service: z.string(), ci: z.object({ coverage: z.number(), passed: z.boolean() }), approvers: z.array(z.string()) })
    expect(failureOf(() => assertHandoffMatches(deploy, { schema })).assertion).toBe(
      '"deployer" handoff_context does not match the schema: ' +
        'handoff_context.ci.coverage: Invalid input: expected number, received string; handoff_context.approvers[1]: Invalid input: expected string, received number',
    )
    expect(() => assertHandoffMatches(deploy, { schema: z.object({ service: z.literal('api') }) })).not.toThrow()
  })

  it('checks every successful result of a tool, skipping errors, and reports the first that fails', () => {
    const schema = z.object({ id: z.string(), amount: z.number() })
    const error = failureOf(() => assertToolOutputMatches(lookups, 'lookup_order', { schema }))
    expect(error.assertion).toBe(
      'tool "lookup_order" result does not match the schema (call_id: call_2, turn 1): result.amount: Invalid input: expected number, received string',
    )
    expect(error.message).toContain(
      'PROBABLE CAUSE: lookup_order returned {"id":"2","amount":"12.50"} in turn 1\n' + '                2 of 3 results fail the schema (turns 1, 3)',
    )
    expect(() => assertToolOutputMatches(lookups, 'lookup_order', { schema: { type: 'object', required: ['id'] } })).not.toThrow()
  })

  it('validates results that are not objects too', () => {
    const trace = buildTrace('plain', [{ calls: [{ name: 'count', result: 'three' }] }])
    expect(failureOf(() => assertToolOutputMatches(trace, 'count', { schema: { type: 'integer' } })).assertion).toBe(
      'tool "count" result does not match the schema (call_id: call_1, turn 0): result: must be integer',
    )
  })

  it('fails when the tool has no successful result', () => {
    const trace = buildTrace('failing', [{ calls: [{ name: 'lookup_order', error: 'NotFound' }] }])
    expect(failureOf(() => assertToolOutputMatches(trace, 'lookup_order', { schema: {} })).assertion).toBe(
      '"lookup_order" was never called or all calls errored',
    )
    expect(failureOf(() => assertToolOutputMatches(trace, 'search', { schema: {} })).assertion).toBe('"search" was never called or all calls errored')
  })

  it('refuses an async schema in a synchronous assertion', () => {
    const schema = z.object({ service: z.string().refine(async () => true) })
    expect(() => assertHandoffMatches(deploy, { schema })).toThrow(
      new TypeError(
        'assertHandoffMatches(): the schema validated asynchronously (it returned a Promise); async schemas cannot be used in a synchronous assertion. ' +
          "Use a schema without async refinements, or validate it yourself with await schema['~standard'].validate(value).",
      ),
    )
  })

  it('refuses values that are not schemas, naming the argument', () => {
    expect(() => assertHandoffMatches(deploy, { schema: 'object' as never })).toThrow(
      new TypeError('assertHandoffMatches(): schema must be a JSON Schema object or a Standard Schema (zod, valibot, arktype), got string.'),
    )
    expect(() => assertToolOutputMatches(lookups, 'lookup_order', { schema: { id: String, amount: Number } as never })).toThrow(
      new TypeError(
        'assertToolOutputMatches(): schema is neither a JSON Schema (no JSON Schema keyword among its keys: id, amount) nor a Standard Schema. ' +
          `For fields, write { type: 'object', properties: { id: { type: 'string' } }, required: ["id"] }, or pass a zod schema.`,
      ),
    )
    expect(() => assertHandoffMatches(deploy, { schema: { type: 'text' } })).toThrow(
      /^assertHandoffMatches\(\): schema is not a valid JSON Schema: schema is invalid: data\/type must be equal to one of the allowed values/,
    )
    expect(() => assertHandoffMatches(deploy, {} as never)).toThrow(TypeError)
  })
})
