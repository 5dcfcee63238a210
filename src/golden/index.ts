/**
 * Golden baselines, modelled on vitest's snapshot engine: the update mode
 * worked out once, one `reconcile()` for every write decision, the normal
 * form, and a store the engine reaches the disk through.
 */
export { resolveUpdateMode, UPDATE_MODES, isCi } from './update-mode.js'
export { normalizeTrace, stringifyTraceStable, GOLDEN_TRACE_ID, GOLDEN_PARENT_ID } from './normal-form.js'
export { renderGolden } from './render.js'
export { fileGoldenStore, loadGolden } from './store.js'
export { reconcile, compareWithGolden } from './reconcile.js'
export { readVariants, variantsText, closestVariant, VARIANTS_KEY } from './variants.js'
export { goldenIdentity } from './identity.js'
export { matchGolden } from './match.js'
export { mismatchMessage, outcomeMessage, acceptCommand, shownPath } from './messages.js'

export type { UpdateMode, UpdateModeSources } from './update-mode.js'
export type { GoldenRecording } from './render.js'
export type { GoldenStore } from './store.js'
export type { Reconciliation, WriteDecision, Comparison, Acceptance, GoldenFile } from './reconcile.js'
export type { GoldenVariant } from './variants.js'
export type { MatchGoldenOptions, MatchGoldenResult } from './match.js'
