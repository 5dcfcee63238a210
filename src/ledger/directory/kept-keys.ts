/**
 * The directory store's idempotency keys: kept in the file of the run they
 * wrote (top-level key `ledger_keys`, beside `ledger`), so a key is on the
 * disk exactly when its write is (one atomic rename), and read back with the
 * run when the store opens. Keys past IDEMPOTENCY_KEY_TTL_SECONDS are
 * dropped at the run's next write and ignored when read.
 */
import { isLive, type KeptAnswer, type KeyedOperation } from '../idempotency.js'

export interface KeptKey extends KeptAnswer {
  operation: KeyedOperation
  key: string
}

/** A run's keys, by callKeyOf. */
export type KeptKeys = Record<string, KeptKey>

export const KEYS_FIELD = 'ledger_keys'

/** The name of a key in a namespace (org and namespace are the run's). */
export function callKeyOf(org: string, namespace: string, operation: string, key: string): string {
  return `${org}\u0000${namespace}\u0000${operation}\u0000${key}`
}

/** The run's keys still live at `now`, or undefined when none. */
export function liveKeys(keys: KeptKeys | undefined, now: number): KeptKeys | undefined {
  if (keys === undefined) return undefined
  const live = Object.entries(keys).filter(([, kept]) => isLive(kept.stored_at, now))
  return live.length === 0 ? undefined : Object.fromEntries(live)
}

/** The keys as a ledger file holds them under KEYS_FIELD: a list. */
export function keysForFile(keys: KeptKeys | undefined): KeptKey[] | undefined {
  return keys === undefined ? undefined : Object.values(keys)
}

/** The keys a ledger file holds under KEYS_FIELD (the ones well formed), or undefined. */
export function keysOfFile(fields: Record<string, unknown>, org: string, namespace: string): KeptKeys | undefined {
  const raw = fields[KEYS_FIELD]
  if (!Array.isArray(raw)) return undefined
  const keys: KeptKeys = {}
  for (const kept of raw as unknown[]) {
    const k = kept as Partial<KeptKey> | null
    if (k === null || typeof k !== 'object' || typeof k.key !== 'string' || typeof k.fingerprint !== 'string' || typeof k.stored_at !== 'number') continue
    if ((k.operation !== 'run.begin' && k.operation !== 'run.complete') || k.answer === null || typeof k.answer !== 'object') continue
    keys[callKeyOf(org, namespace, k.operation, k.key)] = k as KeptKey
  }
  return Object.keys(keys).length === 0 ? undefined : keys
}
