/**
 * The writes a store takes through its write queue (write-queue.ts), one
 * batch at a time: the atomic steps of run.begin, run.complete and run.grade
 * as data, so a store can apply a batch of them in one transaction or one
 * round of file writes, each with the rules of run-rules.ts and each with an
 * answer of its own.
 */
import type { BeginInput, CompleteInput, GradeVerdict } from './checked-input.js'
import type { Scope } from './identity.js'
import type { KeyClaim, Replayed } from './idempotency.js'
import type { BeginOutcome, CompleteOutcome, GradeOutcome, GradeTarget } from './store.js'

export type StoreWrite =
  | { op: 'begin'; input: BeginInput; runId: string; now: number; key: KeyClaim<BeginOutcome> | undefined }
  | { op: 'complete'; scope: Scope; input: CompleteInput; now: number; key: KeyClaim<CompleteOutcome> | undefined }
  | { op: 'grade'; scope: Scope; target: GradeTarget; verdict: GradeVerdict; now: number }

export type StoreWriteResult = BeginOutcome | CompleteOutcome | GradeOutcome | Replayed

/** The org and namespace whose keys a write's key belongs to. */
export function keyScopeOf(write: StoreWrite): { org: string; namespace: string } {
  return write.op === 'begin' ? write.input : write.scope
}
