/**
 * An operation's body checked against its schema (input-schemas.ts) through
 * ajv (trace/validate.ts): the first broken rule becomes a 422 that names
 * the field and the rule. Fields the schema does not know are named for
 * `ignored_args`; ajv fills the defaults from the schema as it checks
 * (`useDefaults`), so each default is written down once, and the body comes
 * out typed as its schema says (checked-input.ts).
 */
import type { ErrorObject } from 'ajv'
import { compileFillingDefaults, toJsonPath } from '../trace/validate.js'
import type { CheckedInputs } from './checked-input.js'
import { LedgerRequestError } from './errors.js'
import { OPERATION_INPUTS, type OperationName } from './input-schemas.js'

type Schema = (typeof OPERATION_INPUTS)[OperationName]

/** Where and what, in words: `limit must be integer`. */
function describe(error: ErrorObject): { field: string; text: string } {
  const path = toJsonPath(error.instancePath)
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required': {
      const field = String(params.missingProperty)
      return { field: path === '' ? field : `${path}.${field}`, text: 'is required' }
    }
    case 'type':
      return { field: path, text: `must be ${String(params.type).replace(/,/g, ' or ')}` }
    case 'enum':
      return { field: path, text: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` }
    case 'minLength':
      return { field: path, text: params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters` }
    case 'maxLength':
      return { field: path, text: `must be at most ${String(params.limit)} characters` }
    default:
      return { field: path, text: error.message ?? `breaks the "${error.keyword}" rule` }
  }
}

/** The body's keys the operation does not take. */
export function ignoredArgs(schema: Schema, body: Record<string, unknown>): string[] {
  return Object.keys(body).filter((key) => !Object.hasOwn(schema.properties, key))
}

/**
 * `body` as `operation`'s input, its absent fields set to their defaults
 * (in `body` itself: the caller's own copy); a 422 naming the first field at
 * fault and its rule when it breaks the schema.
 */
export function checkedInput<N extends OperationName>(operation: N, body: Record<string, unknown>): CheckedInputs[N] {
  const schema = OPERATION_INPUTS[operation]
  const validate = compileFillingDefaults(schema)
  // What ajv has just checked against the schema FromSchema reads: the one place the body becomes its type.
  if (validate(body)) return body as CheckedInputs[N]
  const first = validate.errors?.[0]
  if (first === undefined) throw new LedgerRequestError('invalid_input', `${schema.title}: the body does not match the operation's schema`)
  const { field, text } = describe(first)
  throw new LedgerRequestError('invalid_input', `${schema.title}: ${field === '' ? 'the body' : field} ${text} (rule: ${first.keyword})`, {
    field,
    rule: first.keyword,
  })
}

/** The body as an object: anything else (an array, a string) is a 400. */
export function requireObject(operation: string, body: unknown): Record<string, unknown> {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>
  const got = body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body
  throw new LedgerRequestError('bad_json', `${operation}: the body must be a JSON object of the operation's fields; got ${got}`)
}
