/**
 * The walk below the recursion limit of walk.ts, with an explicit stack
 * instead of the call stack: a hand-written trace nested 100,000 levels deep
 * is redacted like any other. Same decisions as walk.ts (it asks the Walk),
 * same copy-on-write.
 */
import type { JsonObject, JsonValue } from '../trace/types.js'
import { REDACTED } from './policy.js'
import type { Walk } from './walk.js'

type Container = JsonObject | JsonValue[]

interface Frame {
  readonly source: Container
  /** Object keys in order; undefined for an array. */
  readonly keys: readonly string[] | undefined
  /** An array that is a header tuple. */
  readonly tuple: boolean
  readonly parent: Frame | undefined
  /** Where this container sits in its parent: an index into the parent's keys or items. */
  readonly slot: number
  index: number
  renamed: boolean
  copy: Container | undefined
}

/** Sets an own property, also for the key `__proto__` (which JSON.parse makes an own key). */
export function setOwn(object: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
  else object[key] = value
}

/** A shallow copy of `object` with the same keys in the same order. */
export function copyObject(object: JsonObject): JsonObject {
  const copy: JsonObject = {}
  for (const key in object) setOwn(copy, key, object[key]!)
  return copy
}

function open(source: Container, walk: Walk, parent: Frame | undefined, slot: number): Frame {
  const isArray = Array.isArray(source)
  return {
    source,
    keys: isArray ? undefined : Object.keys(source),
    tuple: isArray && walk.isHeaderTuple(source),
    parent,
    slot,
    index: 0,
    renamed: false,
    copy: undefined,
  }
}

function set(frame: Frame, slot: number, value: JsonValue): void {
  if (frame.keys === undefined) {
    ;((frame.copy ??= (frame.source as JsonValue[]).slice()) as JsonValue[])[slot] = value
  } else {
    setOwn((frame.copy ??= copyObject(frame.source as JsonObject)) as JsonObject, frame.keys[slot]!, value)
  }
}

/** Redacts `root` (met at nesting `depth`) without recursion; see walk.ts. */
export function walkDeep(root: Container, walk: Walk, depth: number): JsonValue {
  let frame = open(root, walk, undefined, 0)
  let level = depth + 1
  for (;;) {
    if (level > walk.maxDepth) walk.maxDepth = level
    const length = frame.keys === undefined ? (frame.source as JsonValue[]).length : frame.keys.length
    if (frame.index >= length) {
      let value: Container = frame.copy ?? frame.source
      if (frame.renamed) value = walk.withWrittenKeys(value as JsonObject)
      const parent = frame.parent
      if (parent === undefined) return value
      if (value !== frame.source) set(parent, frame.slot, value)
      frame = parent
      level--
      continue
    }
    const slot = frame.index++
    const key = frame.keys?.[slot]
    let item: JsonValue
    let isSecret: boolean
    if (key === undefined) {
      item = (frame.source as JsonValue[])[slot]!
      isSecret = frame.tuple && slot === 1
    } else {
      item = (frame.source as JsonObject)[key]!
      if (walk.writtenKey(key) !== key) frame.renamed = true
      isSecret = walk.isSecretEntry(frame.source as JsonObject, key, item, walk.keyInfo(key))
    }
    if (isSecret) {
      set(frame, slot, REDACTED)
    } else if (typeof item === 'string') {
      const next = walk.string(item)
      if (next !== item) set(frame, slot, next)
    } else if (item !== null && typeof item === 'object') {
      frame = open(item, walk, frame, slot)
      level++
    }
  }
}
