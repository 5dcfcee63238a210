/**
 * Two JSON Schemas of one tool compared keyword by keyword, each change
 * classified. Whether narrowing breaks depends on who produces the values:
 * the model writes a tool's parameters (`input`: a schema that accepts less
 * breaks what the model was taught to send), the tool writes its result
 * (`output`: a schema that allows more breaks whoever reads it).
 *
 * Contents: classes and places · annotations (wording) · type · enum and
 * const · constraints · object properties · array items · the rest.
 */
import stringify from 'fast-json-stable-stringify'
import type { JsonObject, JsonValue } from '../trace/types.js'
import type { ChangeClass } from './types.js'

export type Polarity = 'input' | 'output'

/** A change found in a schema: its class, what changed (after the place's name), and for wording the two texts. */
export interface SchemaChange {
  class: ChangeClass
  what: string
  before?: string
  after?: string
}

/** Where in a tool a schema sits: its parameters or its result, and the path of properties inside (`address.city`, `tags[]`). */
interface Place {
  polarity: Polarity
  path: string
}

const placeName = ({ polarity, path }: Place): string =>
  path === '' ? (polarity === 'input' ? 'parameters' : 'result schema') : `${polarity === 'input' ? 'parameter' : 'result property'} "${path}"`

const child = (place: Place, path: string): Place => ({
  polarity: place.polarity,
  path: place.path === '' ? path : `${place.path}${path.startsWith('[') ? '' : '.'}${path}`,
})

/** The class of a schema that now accepts fewer values (`narrowed`) or more. */
function classOf(place: Place, change: 'narrowed' | 'widened'): ChangeClass {
  return (change === 'narrowed') === (place.polarity === 'input') ? 'breaking' : 'compatible'
}

const json = (value: unknown): string => JSON.stringify(value) ?? String(value)
const same = (a: unknown, b: unknown): boolean => stringify(a) === stringify(b)
const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value)

// ---- annotations: text the model reads, so a change is wording ----

const ANNOTATIONS = ['title', 'default', 'examples', 'deprecated', '$comment'] as const

function compareAnnotations(a: JsonObject, b: JsonObject, place: Place, out: SchemaChange[]): void {
  if (a.description !== b.description) {
    const text = (value: JsonValue | undefined): string => (typeof value === 'string' ? value : value === undefined ? '' : json(value))
    out.push({ class: 'wording', what: `${placeName(place)} description`, before: text(a.description), after: text(b.description) })
  }
  for (const key of ANNOTATIONS) {
    if (!same(a[key], b[key])) out.push({ class: 'wording', what: `${placeName(place)} ${key}: ${json(a[key] ?? null)} → ${json(b[key] ?? null)}` })
  }
}

// ---- type ----

/** The types a schema allows; undefined for any. */
function typesOf(schema: JsonObject): string[] | undefined {
  const type = schema.type
  if (typeof type === 'string') return [type]
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string').sort()
  return undefined
}

export function typeText(schema: JsonObject): string {
  return typesOf(schema)?.join(' | ') ?? 'any'
}

/** Whether every value of types `from` is a value of types `to` (an integer is a number). */
function typesWithin(from: readonly string[] | undefined, to: readonly string[] | undefined): boolean {
  if (to === undefined) return true
  if (from === undefined) return false
  return from.every((type) => to.includes(type) || (type === 'integer' && to.includes('number')))
}

/** Compares the types; false when they are unrelated (retyped), and nothing deeper is worth comparing. */
function compareType(a: JsonObject, b: JsonObject, place: Place, out: SchemaChange[]): boolean {
  const [from, to] = [typesOf(a), typesOf(b)]
  if (same(from, to)) return true
  const widened = typesWithin(from, to)
  const narrowed = typesWithin(to, from)
  const change = `from ${typeText(a)} to ${typeText(b)}`
  if (widened && !narrowed) out.push({ class: classOf(place, 'widened'), what: `${placeName(place)} type widened ${change}` })
  else if (narrowed && !widened) out.push({ class: classOf(place, 'narrowed'), what: `${placeName(place)} type narrowed ${change}` })
  else if (!widened && !narrowed) {
    out.push({ class: 'breaking', what: `${placeName(place)} retyped ${change}` })
    return false
  }
  return true
}

// ---- enum and const ----

function valuesOf(schema: JsonObject): JsonValue[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum
  return 'const' in schema ? [schema.const as JsonValue] : undefined
}

function compareValues(a: JsonObject, b: JsonObject, place: Place, out: SchemaChange[]): void {
  const [from, to] = [valuesOf(a), valuesOf(b)]
  if (same(from, to)) return
  const list = (values: readonly JsonValue[]): string => values.map(json).join(', ')
  if (from === undefined) {
    out.push({ class: classOf(place, 'narrowed'), what: `${placeName(place)} now limited to ${list(to ?? [])}` })
    return
  }
  if (to === undefined) {
    out.push({ class: classOf(place, 'widened'), what: `${placeName(place)} no longer limited to ${list(from)}` })
    return
  }
  const keys = (values: readonly JsonValue[]): Set<string> => new Set(values.map((value) => stringify(value)))
  const [fromKeys, toKeys] = [keys(from), keys(to)]
  const removed = from.filter((value) => !toKeys.has(stringify(value)))
  const added = to.filter((value) => !fromKeys.has(stringify(value)))
  if (removed.length > 0) out.push({ class: classOf(place, 'narrowed'), what: `${placeName(place)} enum narrowed: ${list(removed)} removed` })
  if (added.length > 0) out.push({ class: classOf(place, 'widened'), what: `${placeName(place)} enum widened: ${list(added)} added` })
}

// ---- constraints ----

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']
/** Constraints that only restrict: present is tighter than absent, and a changed value cannot be ordered. */
const RESTRICTIONS = ['pattern', 'format', 'multipleOf', 'uniqueItems']

function compareBound(key: string, lower: boolean, a: JsonObject, b: JsonObject, place: Place, out: SchemaChange[]): void {
  const [from, to] = [a[key], b[key]]
  if (same(from, to)) return
  if ((from !== undefined && typeof from !== 'number') || (to !== undefined && typeof to !== 'number')) {
    out.push({ class: 'breaking', what: `${placeName(place)} ${key} changed from ${json(from ?? null)} to ${json(to ?? null)}` })
    return
  }
  // Absent is no bound; a higher lower bound (or a lower upper bound) accepts fewer values.
  const tighter = from === undefined ? true : to === undefined ? false : lower ? to > from : to < from
  const how = from === undefined ? `added: ${to}` : to === undefined ? `removed (was ${from})` : `${tighter ? 'tightened' : 'loosened'} from ${from} to ${to}`
  out.push({ class: classOf(place, tighter ? 'narrowed' : 'widened'), what: `${placeName(place)} ${key} ${how}` })
}

function compareConstraints(a: JsonObject, b: JsonObject, place: Place, out: SchemaChange[]): void {
  for (const key of LOWER_BOUNDS) compareBound(key, true, a, b, place, out)
  for (const key of UPPER_BOUNDS) compareBound(key, false, a, b, place, out)
  for (const key of RESTRICTIONS) {
    const [from, to] = [a[key], b[key]]
    if (same(from, to)) continue
    if (from === undefined || from === false) out.push({ class: classOf(place, 'narrowed'), what: `${placeName(place)} ${key} added: ${json(to)}` })
    else if (to === undefined || to === false) out.push({ class: classOf(place, 'widened'), what: `${placeName(place)} ${key} removed (was ${json(from)})` })
    else out.push({ class: 'breaking', what: `${placeName(place)} ${key} changed from ${json(from)} to ${json(to)}` })
  }
}

// ---- object properties ----

const propertiesOf = (schema: JsonObject): JsonObject => (isObject(schema.properties) ? schema.properties : {})
const requiredOf = (schema: JsonObject): Set<string> =>
  new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [])

/** A property's schema without its wording: two properties alike but for their names are a rename. */
function shape(schema: JsonValue | undefined): string {
  if (!isObject(schema)) return stringify(schema ?? null)
  const { description: _d, title: _t, ...rest } = schema
  return stringify(rest)
}

/** Of several properties a removed one may have been renamed to, the one whose name starts most like it. */
function closestName(name: string, candidates: readonly string[]): string | undefined {
  const common = (other: string): number => {
    let n = 0
    while (n < name.length && name[n] === other[n]) n++
    return n
  }
  return candidates.reduce<string | undefined>((best, candidate) => (best === undefined || common(candidate) > common(best) ? candidate : best), undefined)
}

function compareProperties(a: JsonObject, b: JsonObject, place: Place, out: SchemaChange[]): void {
  const [from, to] = [propertiesOf(a), propertiesOf(b)]
  const [wasRequired, isRequired] = [requiredOf(a), requiredOf(b)]
  const input = place.polarity === 'input'
  const removed = Object.keys(from)
    .filter((name) => !(name in to))
    .sort()
  const added = Object.keys(to)
    .filter((name) => !(name in from))
    .sort()
  for (const name of removed) {
    const at = child(place, name)
    // The same schema under a new name: renamed (breaking either way: the old name is gone).
    const rename = closestName(
      name,
      added.filter((candidate) => shape(to[candidate]) === shape(from[name]) && isRequired.has(candidate) === wasRequired.has(name)),
    )
    if (rename !== undefined) {
      added.splice(added.indexOf(rename), 1)
      out.push({ class: 'breaking', what: `${placeName(at)} renamed to "${child(place, rename).path}"` })
      compareAnnotations(from[name] as JsonObject, to[rename] as JsonObject, child(place, rename), out)
    } else out.push({ class: 'breaking', what: `${placeName(at)} removed` })
  }
  for (const name of added) {
    const at = child(place, name)
    const type = isObject(to[name]) ? typeText(to[name]) : 'any'
    if (!input) out.push({ class: 'compatible', what: `${placeName(at)} added (${type})` })
    else if (isRequired.has(name)) out.push({ class: 'breaking', what: `new required ${placeName(at)} (${type})` })
    else out.push({ class: 'compatible', what: `new optional ${placeName(at)} (${type})` })
  }
  for (const name of Object.keys(from)
    .filter((key) => key in to)
    .sort()) {
    const at = child(place, name)
    if (!wasRequired.has(name) && isRequired.has(name)) {
      out.push({ class: classOf(at, 'narrowed'), what: `${placeName(at)} ${input ? 'is now required' : 'is now always present'}` })
    }
    if (wasRequired.has(name) && !isRequired.has(name)) {
      out.push({ class: classOf(at, 'widened'), what: `${placeName(at)} ${input ? 'is now optional' : 'may now be absent'}` })
    }
    compareSchemaAt(from[name], to[name], at, out)
  }
  const [openBefore, openAfter] = [a.additionalProperties, b.additionalProperties]
  if (same(openBefore, openAfter)) return
  if (isObject(openBefore) && isObject(openAfter)) compareSchemaAt(openBefore, openAfter, child(place, '*'), out)
  else if (openAfter === false) out.push({ class: classOf(place, 'narrowed'), what: `${placeName(place)} no longer allows other properties` })
  else if (openBefore === false && (openAfter === undefined || openAfter === true)) {
    out.push({ class: classOf(place, 'widened'), what: `${placeName(place)} now allows other properties` })
  } else
    out.push({ class: 'breaking', what: `${placeName(place)} additionalProperties changed from ${json(openBefore ?? null)} to ${json(openAfter ?? null)}` })
}

// ---- array items ----

function compareItems(a: JsonObject, b: JsonObject, place: Place, out: SchemaChange[]): void {
  const [from, to] = [a.items, b.items]
  if (same(from, to)) return
  if (isObject(from) && isObject(to)) compareSchemaAt(from, to, child(place, '[]'), out)
  else if (from === undefined)
    out.push({ class: classOf(place, 'narrowed'), what: `${placeName(place)} items now limited to ${typeText(isObject(to) ? to : {})}` })
  else if (to === undefined) out.push({ class: classOf(place, 'widened'), what: `${placeName(place)} items no longer limited` })
  else out.push({ class: 'breaking', what: `${placeName(place)} items changed` })
}

// ---- the rest ----

const COMPARED = new Set([
  'description',
  ...ANNOTATIONS,
  'type',
  'enum',
  'const',
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  ...RESTRICTIONS,
  'properties',
  'required',
  'additionalProperties',
  'items',
  '$schema',
])

/** Keywords not worked out here (anyOf, $ref, ...): a change is counted as breaking, since it may be. */
function compareOthers(a: JsonObject, b: JsonObject, place: Place, out: SchemaChange[]): void {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !COMPARED.has(key)).sort()
  for (const key of keys) {
    if (!same(a[key], b[key])) out.push({ class: 'breaking', what: `${placeName(place)} ${key} changed (not compared in detail, so counted as breaking)` })
  }
}

function compareSchemaAt(a: JsonValue | undefined, b: JsonValue | undefined, place: Place, out: SchemaChange[]): void {
  if (same(a, b)) return
  // `true` / `false` schemas and other odd values: compared as a whole.
  if (!isObject(a) || !isObject(b)) {
    out.push({ class: 'breaking', what: `${placeName(place)} changed from ${json(a ?? null)} to ${json(b ?? null)}` })
    return
  }
  compareAnnotations(a, b, place, out)
  if (!compareType(a, b, place, out)) return
  compareValues(a, b, place, out)
  compareConstraints(a, b, place, out)
  compareProperties(a, b, place, out)
  compareItems(a, b, place, out)
  compareOthers(a, b, place, out)
}

/** The changes from schema `a` to schema `b` of a tool's parameters (`input`) or result (`output`), both valid JSON Schema. */
export function compareSchemas(a: JsonObject, b: JsonObject, polarity: Polarity): SchemaChange[] {
  const out: SchemaChange[] = []
  compareSchemaAt(a, b, { polarity, path: '' }, out)
  return out
}
