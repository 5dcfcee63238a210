/**
 * The one owner of ajv. The trace schema is compiled once, on first use, and
 * user schemas (assertions) are compiled through the same instance and cached
 * per schema object, so a schema used in a loop is compiled a single time.
 *
 * ajv itself is loaded on first use too: its 60-odd modules cost 25-40 ms to
 * load, in every vitest worker and test file that imports reagent-flow, and a
 * test that never validates anything should not pay that.
 */
import { createRequire } from 'node:module'
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv'
import { TraceFormatError } from '../errors/index.js'
import { checkNesting } from './depth.js'
import traceSchema from './trace.schema.json' with { type: 'json' }
import type { Trace } from './types.js'

let ajvClass: typeof Ajv | undefined

/** A new ajv instance (ajv is CommonJS: required synchronously, the first time only). */
function newAjv(options: { allErrors: boolean; strict: boolean; useDefaults?: boolean }): Ajv {
  ajvClass ??= (createRequire(import.meta.url)('ajv') as { Ajv: typeof Ajv }).Ajv
  return new ajvClass(options)
}

let traceValidator: ValidateFunction | undefined
let userAjv: Ajv | undefined
let defaultsAjv: Ajv | undefined
const compiled = new WeakMap<object, ValidateFunction>()
const compiledWithDefaults = new WeakMap<object, ValidateFunction>()

function compileTraceSchema(): ValidateFunction {
  // allErrors is off for the trace schema: the first broken rule is what the
  // user needs, and stopping early keeps validation of 10k-turn files cheap.
  return newAjv({ allErrors: false, strict: false }).compile(traceSchema)
}

/**
 * Compiles (once per schema object) a user-supplied JSON Schema. All errors
 * are collected here, because an assertion should list every broken field.
 */
export function compileJsonSchema(schema: object): ValidateFunction {
  let validate = compiled.get(schema)
  if (validate === undefined) {
    userAjv ??= newAjv({ allErrors: true, strict: false })
    validate = userAjv.compile(schema)
    compiled.set(schema, validate)
  }
  return validate
}

/**
 * Compiles (once per schema object) one of our own schemas whose validation
 * also sets each absent property that has a `default` to it, in the object
 * validated (ajv's `useDefaults`). Its own ajv instance, so a user's schema never writes
 * into the values it checks.
 */
export function compileFillingDefaults(schema: object): ValidateFunction {
  let validate = compiledWithDefaults.get(schema)
  if (validate === undefined) {
    defaultsAjv ??= newAjv({ allErrors: true, strict: false, useDefaults: true })
    validate = defaultsAjv.compile(schema)
    compiledWithDefaults.set(schema, validate)
  }
  return validate
}

/**
 * Why `schema` is not valid JSON Schema (checked against draft-07's
 * meta-schema, whatever `$schema` it names), or undefined when it is: a
 * tool's parameters are recorded as given, and the contract diff flags them.
 */
export function jsonSchemaProblem(schema: object): string | undefined {
  userAjv ??= newAjv({ allErrors: true, strict: false })
  const { $schema: _named, ...rest } = schema as Record<string, unknown>
  try {
    if (userAjv.validateSchema(rest) === true) return undefined
  } catch (error) {
    return `ajv could not read it (${error instanceof Error ? error.message : String(error)})`
  }
  const first = userAjv.errors?.[0]
  if (first === undefined) return 'it does not follow the JSON Schema meta-schema'
  const where = toJsonPath(first.instancePath)
  return `${where === '' ? 'the schema' : where} ${first.message ?? 'is invalid'}`
}

/** `/turns/0/llm_call` -> `turns[0].llm_call`, the notation used in every message. */
export function toJsonPath(pointer: string): string {
  let out = ''
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (/^\d+$/.test(part)) out += `[${part}]`
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out === '' ? part : `.${part}`
    else out += `[${JSON.stringify(part)}]`
  }
  return out
}

/** One ajv error as a sentence: where, and what the rule wanted. */
export function describeSchemaError(error: ErrorObject): { path: string; rule: string; detail: string } {
  const path = toJsonPath(error.instancePath)
  let detail = error.message ?? 'is invalid'
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'additionalProperties') {
    // reagent-flow 0.5 skips top-level keys it does not know, so it never reads a conversation: the rule there is ours.
    const why = /^conversation\.messages\[\d+\]$/.test(path)
      ? 'a conversation message holds role, content, exchange and turns only'
      : path.startsWith('conversation')
        ? 'not part of the conversation format'
        : 'the Python reagent-flow 0.5 cannot load extra keys here'
    detail = `unexpected key "${String(params.additionalProperty)}" (${why})`
  } else if (error.keyword === 'required') {
    detail = `missing required key "${String(params.missingProperty)}"`
  } else if (error.keyword === 'type') {
    detail = `must be ${String(params.type).replace(/,/g, ' or ')}`
  } else if (error.keyword === 'const') {
    detail = `must be ${JSON.stringify(params.allowedValue)}`
  } else if (error.keyword === 'enum') {
    detail = `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
  }
  return { path, rule: error.keyword, detail }
}

/** One broken rule of a user schema: where (JSON path, `""` for the value itself) and what. */
export interface SchemaIssue {
  path: string
  message: string
}

function joinKey(path: string, key: string): string {
  const suffix = toJsonPath(`/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)
  return path === '' || suffix.startsWith('[') ? `${path}${suffix}` : `${path}.${suffix}`
}

/** A user-schema error in the words of an assertion message (the trace-format wording would mislead here). */
function describeUserError(error: ErrorObject): SchemaIssue {
  const path = toJsonPath(error.instancePath)
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
      return { path: joinKey(path, String(params.missingProperty)), message: 'is required' }
    case 'additionalProperties':
      return { path: joinKey(path, String(params.additionalProperty)), message: 'is not allowed (additionalProperties)' }
    case 'type':
      return { path, message: `must be ${String(params.type).replace(/,/g, ' or ')}` }
    case 'const':
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}` }
    case 'enum':
      return { path, message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` }
    default:
      return { path, message: error.message ?? `breaks the "${error.keyword}" rule` }
  }
}

/**
 * Validates `value` against a user-supplied JSON Schema and returns every
 * broken rule (empty when it passes). Throws a TypeError when the schema
 * itself does not compile.
 */
export function checkJsonSchema(schema: object, value: unknown, argument = 'schema'): SchemaIssue[] {
  let validate: ValidateFunction
  try {
    validate = compileJsonSchema(schema)
  } catch (error) {
    throw new TypeError(`${argument} is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (validate(value)) return []
  return (validate.errors ?? []).map(describeUserError)
}

/**
 * Checks that a value is a format "1" trace, nested at most MAX_TRACE_DEPTH
 * levels (see depth.ts). Returns it typed, or throws `TraceFormatError`
 * naming `file` (default `"<value>"`), the JSON path and the rule.
 */
export function validateTrace(value: unknown, file = '<value>'): Trace {
  traceValidator ??= compileTraceSchema()
  if (traceValidator(value)) {
    checkNesting(value, file)
    return value as Trace
  }
  const first = traceValidator.errors?.[0]
  if (first === undefined) throw new TraceFormatError(file, '', 'schema', 'does not match the trace schema')
  const { path, rule, detail } = describeSchemaError(first)
  throw new TraceFormatError(file, path, rule, detail)
}

/** Parses JSON text and validates it; every failure is a `TraceFormatError` naming `file`. */
export function parseTrace(text: string, file: string): Trace {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    throw new TraceFormatError(file, '', 'json', `the file is not JSON (${detail})`, { cause: error })
  }
  return validateTrace(value, file)
}
