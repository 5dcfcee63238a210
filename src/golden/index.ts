/**
 * Golden baselines, modelled on vitest's snapshot engine: the update mode
 * worked out once, one `reconcile()` for every write decision, the normal
 * form, and a store the engine reaches the disk through.
 */
export { resolveUpdateMode } from './update-mode.js'

export { renderGolden } from './render.js'
export { fileGoldenStore } from './store.js'
export { reconcile, compareWithGolden } from './reconcile.js'
export { readVariants } from './variants.js'

export { matchGolden } from './match.js'
export { mismatchMessage, shownPath } from './messages.js'

export type { GoldenStore } from './store.js'
export type { WriteDecision, Acceptance, GoldenFile } from './reconcile.js'

export type { MatchGoldenOptions, MatchGoldenResult } from './match.js'
