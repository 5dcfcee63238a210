/** The adapter's name in warnings, and its guard around every recording. */
import { recordSafely } from '../../src/adapter-support/index.js'

export const ADAPTER = 'reagent-flow/ai-sdk'

/**
 * Runs `record`; a failure warns once (naming `what`) and never reaches the
 * user's model call or tool.
 */
export function recordSafelyAiSdk(what: string, record: () => void): void {
  recordSafely(ADAPTER, what, record)
}
