/**
 * Idempotency keys of run.begin and run.complete (HTTP header
 * `Idempotency-Key`, or the input field `idempotency_key`, which MCP clients
 * send): a call re-sent with the key of one the store already answered gets
 * that answer again, and nothing is written twice, even when the first
 * answer was lost on its way back (a begin without run_id minted an id: the
 * retry gets the same run).
 *
 * A store keeps a key with the write it answers, in the same atomic step (one
 * PostgreSQL transaction; the run's own file in a directory store), so a key
 * is kept exactly when its write is. Keys are scoped to the org, namespace
 * and operation, and kept IDEMPOTENCY_KEY_TTL_SECONDS. A refused call (run
 * closed, not found, a conflict) keeps no key: sent again, it is tried again.
 */
import { createHash } from 'node:crypto'

export type KeyedOperation = 'run.begin' | 'run.complete'

/** How long a key is kept, in seconds: a day, far longer than any client retries a call. */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60

/** What a store keeps of a key: the call it came with (as a hash) and what it was answered. */
export interface KeptAnswer {
  fingerprint: string
  answer: object
  /** Epoch seconds. */
  stored_at: number
}

/** A write that came with a key: the store answers `replayed` when it kept one, and otherwise keeps `answer(outcome)` with the write. */
export interface KeyClaim<O> {
  operation: KeyedOperation
  key: string
  fingerprint: string
  /** The call's answer for the store's outcome; undefined when the outcome is a refusal (no key is kept). */
  answer: (outcome: O) => object | undefined
}

export interface Replayed {
  kind: 'replayed'
  kept: KeptAnswer
}

/** JSON with object keys sorted, so the same call hashes the same whatever order its fields came in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${stableJson(field)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** The SHA-256 of `operation` and the checked input: a key sent again with another call is told apart. */
export function fingerprintOf(operation: KeyedOperation, input: object): string {
  return createHash('sha256').update(operation).update('\n').update(stableJson(input)).digest('hex')
}

/** Whether a key kept at `storedAt` still counts at `now`. */
export function isLive(storedAt: number, now: number): boolean {
  return storedAt > now - IDEMPOTENCY_KEY_TTL_SECONDS
}
