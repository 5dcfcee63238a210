/**
 * Where a session keeps its helper runs (helper-runs.ts adds and reads
 * them): a feature key of its own that needs nothing of the Session class,
 * so the Session can read its helpers' traces for `spend()` without an
 * import circle.
 */
import type { Trace } from '../trace/types.js'
import { FeatureKey } from './internals.js'

/** What a helper run does for the session it serves. */
export type HelperRole = 'user' | 'judge' | 'tools'

/** One helper run as the owner keeps it; helper-runs.ts types `session` as the Session it is. */
export interface KeptHelperRun {
  role: HelperRole
  session: { readonly trace: Trace }
}

export const HELPER_RUNS = new FeatureKey<KeptHelperRun[]>('helper runs')
