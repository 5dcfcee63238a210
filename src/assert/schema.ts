/**
 * Schemas in assertions: a JSON Schema object (checked with ajv, through
 * trace/validate.ts) or any Standard Schema (zod, valibot, arktype: an object
 * with `~standard.validate`), with no dependency on those libraries. Either
 * way the result is every broken rule with the path of the value breaking it.
 */
import { checkJsonSchema, type SchemaIssue } from '../trace/validate.js'

/** Anything implementing the Standard Schema interface (https://standardschema.dev): zod, valibot, arktype... */
export interface StandardSchemaLike {
  readonly '~standard': { readonly validate: (value: unknown) => unknown }
}

/** A JSON Schema object, e.g. `{ type: 'object', required: ['id'], properties: { id: { type: 'string' } } }`. */
export type JsonSchema = { readonly [keyword: string]: unknown }

/** What the schema assertions accept. */
export type AssertionSchema = JsonSchema | StandardSchemaLike

export interface SchemaOptions {
  /** A JSON Schema object or a Standard Schema (zod, valibot, arktype). Required. @example { schema: z.object({ order_id: z.string() }) } */
  schema: AssertionSchema
}

type StandardPathItem = PropertyKey | { key: PropertyKey }

// Any of these at the top level makes an object a JSON Schema. Without the
// check, a field map like `{ amount: 'number' }` would compile (ajv ignores
// unknown keywords) and accept every value: an assertion that cannot fail.
const KEYWORDS = new Set(
  (
    'type properties required items prefixItems additionalProperties patternProperties propertyNames enum const ' +
    'allOf anyOf oneOf not if then else $ref $defs definitions $schema $id $anchor $dynamicRef minimum maximum ' +
    'exclusiveMinimum exclusiveMaximum multipleOf minLength maxLength pattern format minItems maxItems uniqueItems ' +
    'contains minContains maxContains minProperties maxProperties dependentRequired dependentSchemas dependencies ' +
    'unevaluatedProperties unevaluatedItems nullable title description default examples'
  ).split(' '),
)

function isStandardSchema(schema: unknown): schema is StandardSchemaLike {
  if (schema === null || (typeof schema !== 'object' && typeof schema !== 'function')) return false
  const standard = (schema as { '~standard'?: unknown })['~standard']
  return standard !== null && typeof standard === 'object' && typeof (standard as { validate?: unknown }).validate === 'function'
}

function joinPath(root: string, path: string): string {
  if (path === '') return root
  return path.startsWith('[') || root === '' ? `${root}${path}` : `${root}.${path}`
}

function standardPath(items: readonly StandardPathItem[] | undefined): string {
  let path = ''
  for (const item of items ?? []) {
    const key = typeof item === 'object' && item !== null ? item.key : item
    if (typeof key === 'number') path += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) path += path === '' ? key : `.${key}`
    else path += `[${typeof key === 'symbol' ? key.toString() : JSON.stringify(key)}]`
  }
  return path
}

function checkStandard(fn: string, schema: StandardSchemaLike, value: unknown): SchemaIssue[] {
  const result = schema['~standard'].validate(value)
  if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') {
    // Keep the rejection of a promise we will not await from surfacing as an unhandled one.
    ;(result as Promise<unknown>).then(undefined, () => undefined)
    throw new TypeError(
      `${fn}(): the schema validated asynchronously (it returned a Promise); async schemas cannot be used in a synchronous assertion. ` +
        `Use a schema without async refinements, or validate it yourself with await schema['~standard'].validate(value).`,
    )
  }
  const issues = (result as { issues?: ReadonlyArray<{ message?: unknown; path?: readonly StandardPathItem[] }> } | null)?.issues
  return (issues ?? []).map((issue) => ({ path: standardPath(issue.path), message: String(issue.message ?? 'is invalid') }))
}

function checkJson(fn: string, schema: unknown, value: unknown): SchemaIssue[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new TypeError(
      `${fn}(): schema must be a JSON Schema object or a Standard Schema (zod, valibot, arktype), got ${Array.isArray(schema) ? 'an array' : schema === null ? 'null' : typeof schema}.`,
    )
  }
  const keys = Object.keys(schema)
  if (keys.length > 0 && !keys.some((key) => KEYWORDS.has(key))) {
    throw new TypeError(
      `${fn}(): schema is neither a JSON Schema (no JSON Schema keyword among its keys: ${keys.join(', ')}) nor a Standard Schema. ` +
        `For fields, write { type: 'object', properties: { ${keys[0]}: { type: 'string' } }, required: [${JSON.stringify(keys[0])}] }, or pass a zod schema.`,
    )
  }
  return checkJsonSchema(schema, value, `${fn}(): schema`)
}

/**
 * Every issue of `value` against `schema`, paths prefixed with `root`
 * (`handoff_context.ci.coverage`). Throws a TypeError for a value that is not
 * a schema, or a schema that validates asynchronously.
 */
export function checkSchema(fn: string, schema: unknown, value: unknown, root: string): SchemaIssue[] {
  const issues = isStandardSchema(schema) ? checkStandard(fn, schema, value) : checkJson(fn, schema, value)
  return issues.map((issue) => ({ path: joinPath(root, issue.path), message: issue.message }))
}

/** `path: message; path: message` */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
}
