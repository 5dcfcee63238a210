/**
 * `reagent-flow/diff`: the structural diff of two traces that goldens, the
 * `diff` command and the viewer print, for comparing traces yourself.
 */
export { diffTraces } from '../diff/diff-traces.js'
export { formatDiff } from '../diff/format.js'

export type { FormatDiffOptions } from '../diff/format.js'
export type {
  DiffOptions,
  MatchMode,
  ArgsMode,
  ArgsOptions,
  ArgsMatcher,
  ToolArgsRule,
  TraceDiff,
  TraceChange,
  ChangeSubject,
  TurnPair,
  IndexPair,
} from '../diff/types.js'
