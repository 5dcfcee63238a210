/**
 * Every error reagent-flow throws on purpose is a `ReagentError`. Each message
 * says what happened, which name or path, and how to fix it; the same facts are
 * kept in typed fields so code can branch on them without parsing text.
 *
 * `name` is set explicitly (not taken from the constructor) so type guards keep
 * working across realms and after minification, as in ky.
 */

// A registry symbol, not a module-local one, so two copies of reagent-flow in
// one process (a CJS/ESM pair, a nested install) or another realm (a `vm`
// context, a worker's structured clone aside) still recognise each other.
const brand = Symbol.for('reagent-flow.error')

export class ReagentError extends Error {
  override name: string = 'ReagentError'

  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
  }

  static {
    Object.defineProperty(ReagentError.prototype, brand, { value: true })
  }
}

/**
 * True for any error thrown by reagent-flow, also across module copies and realms.
 *
 * @example
 * try { await agent() } catch (error) { if (isReagentError(error)) console.error(error.message) }
 */
export function isReagentError(error: unknown): error is ReagentError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[brand] === true
}

/**
 * The check behind every subclass's guard: a reagent-flow error (by its
 * brand, not `instanceof`, so another copy or realm counts) with this `name`.
 * Never throws: the value may be anything an agent threw (a revoked Proxy
 * refuses every look).
 */
export function isReagentErrorNamed(value: unknown, name: string): boolean {
  try {
    return isReagentError(value) && value.name === name
  } catch {
    return false
  }
}
