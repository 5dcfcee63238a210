/**
 * Value-level comparison: every difference between two JSON values down to
 * the leaves, and tool arguments under their rule (exact, subset, superset,
 * ignore, listed keys, or the user's function).
 */
import stringify from 'fast-json-stable-stringify'
import { jsonEqual } from '../trace/json-equal.js'
import type { JsonObject, JsonValue } from '../trace/types.js'
import { formatPath } from './json-path.js'
import type { ArgsRule } from './options.js'
import { IGNORED, type Maybe } from './view.js'

export type ValueChangeKind = 'added' | 'removed' | 'changed'
/** Receives one difference; `path` is relative to the compared values (`q`, `[0].id`, or `''` for the values themselves). */
export type EmitValueChange = (kind: ValueChangeKind, path: string, expected: JsonValue | undefined, actual: JsonValue | undefined) => void

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

const own = (object: JsonObject, key: string): JsonValue | undefined => (Object.hasOwn(object, key) ? object[key] : undefined)

// The path is kept as a stack of keys and only written out for a difference,
// so comparing two equal 10,000-turn traces builds no strings.
function walk(expected: JsonValue | undefined, actual: JsonValue | undefined, path: (string | number)[], emit: EmitValueChange): void {
  if (expected === actual) return
  const at = (): string => formatPath(path)
  if (expected === undefined) return emit('added', at(), undefined, actual)
  if (actual === undefined) return emit('removed', at(), expected, undefined)
  if (isObject(expected) && isObject(actual)) {
    for (const key in expected) {
      path.push(key)
      walk(expected[key], own(actual, key), path, emit)
      path.pop()
    }
    for (const key in actual) {
      if (Object.hasOwn(expected, key)) continue
      path.push(key)
      emit('added', at(), undefined, actual[key])
      path.pop()
    }
    return
  }
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    for (let i = 0; i < expected.length; i++) {
      path.push(i)
      walk(expected[i], actual[i], path, emit)
      path.pop()
    }
    return
  }
  emit('changed', at(), expected, actual)
}

/**
 * Emits each difference between `expected` and `actual` at its path:
 * object keys one by one, arrays of equal length item by item, anything else
 * (including arrays whose length changed) as one changed value.
 */
export function diffValues(expected: JsonValue | undefined, actual: JsonValue | undefined, emit: EmitValueChange, path: (string | number)[] = []): void {
  walk(expected, actual, path, emit)
}

function valueAt(args: JsonObject, keys: readonly string[]): JsonValue | undefined {
  let value: JsonValue | undefined = args
  for (const key of keys) value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined
  return value
}

/** Emits the differences between two calls' arguments that `rule` counts. */
export function diffArgs(rule: ArgsRule, expected: Maybe<JsonObject>, actual: Maybe<JsonObject>, emit: EmitValueChange): void {
  if (expected === IGNORED || actual === IGNORED) return
  switch (rule.kind) {
    case 'ignore':
      return
    case 'exact':
      return diffValues(expected, actual, emit)
    case 'subset':
      for (const key in actual) diffValues(own(expected, key), actual[key], emit, [key])
      return
    case 'superset':
      for (const key in expected) diffValues(expected[key], own(actual, key), emit, [key])
      return
    case 'keys':
      for (const keys of rule.keys) diffValues(valueAt(expected, keys), valueAt(actual, keys), emit, [...keys])
      return
    case 'function':
      if (!rule.matches(actual, expected)) emit('changed', '', expected, actual)
      return
  }
}

/** True when `rule` accepts `actual` arguments for `expected` ones. */
export function argsMatch(rule: ArgsRule, expected: Maybe<JsonObject>, actual: Maybe<JsonObject>): boolean {
  let match = true
  diffArgs(rule, expected, actual, () => void (match = false))
  return match
}

/**
 * A text that is equal for two argument objects whenever `rule` accepts one
 * for the other; undefined when the rule cannot be decided by equality
 * (subset, superset, a function).
 */
export function argsKey(rule: ArgsRule, args: Maybe<JsonObject>): string | undefined {
  if (args === IGNORED || rule.kind === 'ignore') return ''
  if (rule.kind === 'exact') return stringify(args)
  if (rule.kind === 'keys') {
    // [0] for a missing key, [1, value] for a present one: a missing key and a null one differ.
    return stringify(
      rule.keys.map((keys) => {
        const value = valueAt(args, keys)
        return value === undefined ? [0] : [1, value]
      }),
    )
  }
  return undefined
}

/**
 * True when two calls' arguments are the same as far as `rule` looks at
 * them: what turns are aligned on first. (For a function rule that is
 * equality; the function still decides whether they match.)
 */
export function sameArgs(rule: ArgsRule, expected: Maybe<JsonObject>, actual: Maybe<JsonObject>): boolean {
  if (expected === IGNORED || actual === IGNORED || rule.kind === 'ignore') return true
  if (rule.kind === 'keys') return rule.keys.every((keys) => jsonEqual(valueAt(expected, keys), valueAt(actual, keys)))
  return jsonEqual(expected, actual)
}
