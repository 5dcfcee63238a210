/**
 * `reagent-flow/golden`: the golden engine behind `session(name, { golden })`
 * and `toMatchGolden`, for tools that compare a trace with a baseline outside
 * a session (a script, a custom reporter, another test runner).
 */
export { matchGolden } from '../golden/match.js'
export { resolveUpdateMode, UPDATE_MODES } from '../golden/update-mode.js'
export { normalizeTrace } from '../golden/normal-form.js'
export { fileGoldenStore, loadGolden } from '../golden/store.js'

export type { MatchGoldenOptions, MatchGoldenResult } from '../golden/match.js'
export type { UpdateMode, UpdateModeSources } from '../golden/update-mode.js'
export type { GoldenStore } from '../golden/store.js'
