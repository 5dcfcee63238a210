/**
 * What every adapter needs from the core, in one place: the session to
 * record into, and a guard that keeps a recording failure from breaking the
 * user's call (it warns once per adapter, then stays quiet).
 *
 * Adapters import this module and the SDK they adapt, nothing else.
 */
import { currentSession, runInSession } from './context.js'
import type { Session } from './session.js'
import { epochSeconds } from './trace/ids.js'
import { warn } from './warnings.js'

// epochSeconds: the recorder's clock, so an adapter's call timestamps and the
// recorder's result times (turn durations) are read from the same clock.
// runInSession: for work an SDK runs outside the async context of the session
// it belongs to (a stream's callbacks run in the context of whoever fed it).
export { currentSession, epochSeconds, runInSession }
export type { Session }

const warned = new Set<string>()

/**
 * Runs `record` and returns its value; if it throws, warns once for `adapter`
 * (naming what failed) and returns undefined. The user's call goes on.
 */
export function recordSafely<T>(adapter: string, what: string, record: () => T): T | undefined {
  try {
    return record()
  } catch (error) {
    if (!warned.has(adapter)) {
      warned.add(adapter)
      warn(
        'REAGENT_ADAPTER',
        `${adapter}: could not record ${what} (${error instanceof Error ? error.message : String(error)}). ` +
          `The call itself went on; further recording failures of this adapter are not reported. Please report this with the SDK version.`,
      )
    }
    return undefined
  }
}

/** For tests: forget which adapters already warned. */
export function resetAdapterWarnings(): void {
  warned.clear()
}
