/**
 * Patching one SDK client instance: its methods are replaced by own
 * properties of the objects that hold them (the prototype, shared by every
 * client, is left alone; a Proxy around the client would break its
 * `#private` fields), once per client, and the client `withOptions()` derives
 * from it is instrumented too.
 */

type Method = (this: unknown, ...args: never[]) => unknown

/**
 * Marks `client` as instrumented by `marker`, a registry symbol
 * (`Symbol.for`), so two copies of reagent-flow in one process never patch a
 * client twice. False when it already was.
 */
export function markInstrumented(client: object, marker: symbol): boolean {
  if (Object.hasOwn(client, marker)) return false
  Object.defineProperty(client, marker, { value: true })
  return true
}

/**
 * Replaces `target[key]`, when it is a method, by what `wrap` builds from
 * the original (an own, non-enumerable property of `target`). False when
 * there is no such method.
 */
export function patchMethod<M extends Method>(target: object | null | undefined, key: string, wrap: (original: M) => M): boolean {
  const original: unknown = (target as Record<string, unknown> | null | undefined)?.[key]
  if (target === null || target === undefined || typeof original !== 'function') return false
  Object.defineProperty(target, key, { configurable: true, writable: true, enumerable: false, value: wrap(original as M) })
  return true
}

/** `client.withOptions()` builds a new client with new resources: hand it back through `instrument` too. */
export function reinstrumentWithOptions(client: object, instrument: (derived: object) => unknown): void {
  patchMethod<(...args: unknown[]) => unknown>(
    client,
    'withOptions',
    (withOptions) =>
      function (this: unknown, ...args: unknown[]): unknown {
        const derived = withOptions.apply(this, args)
        return derived !== null && typeof derived === 'object' ? instrument(derived) : derived
      },
  )
}
