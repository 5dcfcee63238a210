/**
 * Deep equality between what a test expects and what a trace recorded, with
 * asymmetric matchers (vitest's `expect.any(Number)`, `expect.stringContaining`,
 * `expect.objectContaining`, ...) allowed anywhere in the expected value.
 *
 * Matchers are recognised by shape, an object with an `asymmetricMatch`
 * function, so the core never imports vitest and jest-style matchers work too.
 */

/** Any object with an `asymmetricMatch` method, as vitest's and jest's `expect.*` helpers return. */
export interface AsymmetricMatcher {
  asymmetricMatch(other: unknown): boolean
}

export function isAsymmetricMatcher(value: unknown): value is AsymmetricMatcher {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
  )
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * True when `actual` equals `expected`: arrays item by item, plain objects key
 * by key (a key holding `undefined` counts as absent), other values by `===`;
 * an asymmetric matcher decides for itself.
 */
export function matches(expected: unknown, actual: unknown): boolean {
  if (isAsymmetricMatcher(expected)) return expected.asymmetricMatch(actual)
  if (expected === actual) return true
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => matches(item, actual[i]))
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)])
    for (const key of keys) if (!matches(expected[key], actual[key])) return false
    return true
  }
  return typeof expected === 'number' && typeof actual === 'number' && Number.isNaN(expected) && Number.isNaN(actual)
}
