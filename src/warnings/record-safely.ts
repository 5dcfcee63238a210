/**
 * The guard that keeps a recording failure from breaking the user's call: it
 * warns once per adapter, then stays quiet. Used by everything that records
 * into a session from the outside (the adapters, through adapter-support; the
 * OpenTelemetry span processor), so it sits down here beside the warnings.
 */
import { isBudgetStop } from '../errors/budget-exceeded-error.js'
import { warn } from './warnings.js'

const warned = new Set<string>()

/** Warns, the first time for `adapter`, that recording `what` failed with `error`; the call itself went on. */
export function reportRecordingFailure(adapter: string, what: string, error: unknown): void {
  if (warned.has(adapter)) return
  warned.add(adapter)
  warn(
    'REAGENT_ADAPTER',
    `${adapter}: could not record ${what} (${error instanceof Error ? error.message : String(error)}). ` +
      `The call itself went on; further recording failures of this adapter are not reported. Please report this with the SDK version.`,
  )
}

/**
 * Runs `record` and returns its value; if it throws, warns once for `adapter`
 * (naming what failed) and returns undefined. The user's call goes on.
 * Except for the one deliberate stop: a run past its limits (the `limits`
 * option) throws `BudgetExceededError` as a call starts, and that reaches the caller.
 */
export function recordSafely<T>(adapter: string, what: string, record: () => T): T | undefined {
  try {
    return record()
  } catch (error) {
    if (isBudgetStop(error)) throw error
    reportRecordingFailure(adapter, what, error)
    return undefined
  }
}

/** For tests: forget which adapters already warned. */
export function resetAdapterWarnings(): void {
  warned.clear()
}
