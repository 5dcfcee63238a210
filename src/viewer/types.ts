/**
 * What the viewer's server (and the static report) hands the page: the
 * shapes of its JSON, shared by the server side and the browser bundle
 * (types only: the bundle imports nothing else from here).
 */
import type { FigureComparison, Run, Verdict } from '../compare/types.js'
import type { TraceDiff } from '../diff/types.js'
import type { Spend } from '../trace/spend-types.js'
import type { Grade, Trace, TraceStatus } from '../trace/types.js'

/** Whether a run matches its golden baseline (compared as `reagent-flow diff <name>` does, default options). */
export type GoldenState =
  /** Compared, and no difference counts. */
  | 'matches'
  | 'differs'
  /** No golden baseline belongs to the run. */
  | 'none'
  /** The run is still being recorded: compared once it finished. */
  | 'pending'
  /** The golden file is there but is not a readable trace. */
  | 'unreadable'

/** One row of the Runs page: a recorded run or a golden baseline, from its file. */
export interface RunSummary {
  /** The file relative to the trace directory, `/` between folders: unique, and what every link names. */
  id: string
  kind: 'run' | 'golden'
  name: string
  trace_id: string
  status: TraceStatus
  interruption_reason: string | null
  error: { name: string; message: string } | null
  started_at: number
  ended_at: number | null
  duration_ms: number | null
  turns: number
  tool_calls: number
  /** Tool results with an error, and LLM calls that failed. */
  errors: number
  tokens: { input: number; output: number; total: number } | null
  /** From the built-in price table (and --prices); null when no turn could be priced. */
  cost_usd: number | null
  /** Turns with a model and tokens the price table does not know. */
  unpriced_turns: number
  /** LLM calls answered from a recording (`replayed: true`). */
  replayed_calls: number
  /** Turns or LLM calls whose failure was injected (`injected: true`). */
  injected_faults: number
  resumed_from: string | null
  grade: Grade | null
  goal: string | null
  /** Test-file-scoped runs: the test file (relative to the vitest root) and the full test name. */
  test_file: string | null
  test_name: string | null
  parent_trace_id: string | null
  session_id: string | null
  user_id: string | null
  /** For runs: its golden and whether it matches; null for goldens. */
  golden: { state: GoldenState; id: string | null; changes: number } | null
  /** Failed, cancelled or interrupted, graded fail, or differing from its golden. */
  failing: boolean
}

/** A file that is not a readable trace, and why. */
export interface SkippedEntry {
  id: string
  reason: string
}

/** `GET /api/runs`, and the Runs page of a report. */
export interface RunsPayload {
  /** The trace directory, as the command was given it. */
  dir: string
  runs: RunSummary[]
  skipped: SkippedEntry[]
  /** Date of the built-in price table. */
  prices_as_of: string
  /** Increases with every change the server saw in the directory. */
  version: number
}

/**
 * A trace as the page receives it: messages written as trace files write
 * them (a call's new messages, and `messages_base` pointing at the earlier
 * call whose list comes first), so a long conversation is sent once, not
 * once per turn. The page rebuilds one call's full list when it shows it.
 */
export type CompactTrace = Trace

/** `GET /api/run?id=`: one run, whole. */
export interface RunPayload {
  summary: RunSummary
  trace: CompactTrace
  /** The agent stack trace (as a failed assertion prints it) of a run that failed or did not finish; null otherwise. */
  stack_trace: string | null
  /** Present only for a run with helper runs (a simulated user, judges, simulated tools): what the agent and each helper spent. */
  spend?: Spend
}

/** Which two traces to compare, and how (the options of `reagent-flow diff`). */
export interface DiffRequest {
  /** The run compared. */
  actual: string
  /** The trace it is compared with; absent: the run's golden. */
  expected?: string | undefined
  mode?: string | undefined
  args?: string | undefined
  /** Comma-separated, as `--ignore` takes it. */
  ignore?: string | undefined
}

export interface DiffSide {
  id: string
  /** `golden`, `run`. */
  kind: RunSummary['kind']
  name: string
  trace: CompactTrace
}

/** `GET /api/diff`: the aligned diff and both traces, to show the turns side by side. */
export interface DiffPayload {
  expected: DiffSide
  actual: DiffSide
  diff: TraceDiff
  /** The command that makes the run its golden (the viewer never writes one); null when not comparing with a golden. */
  approve_command: string | null
}

/** A change the server saw: rows to add or replace, and ids gone. Sent as server-sent events (`change`). */
export interface RunsDelta {
  version: number
  upsert: RunSummary[]
  remove: string[]
  /** The files that are not readable traces now (all of them). */
  skipped: SkippedEntry[]
}

/** A run's figures as the comparison's charts draw them (no trace content, no commit). */
export type RunFigures = Omit<Run, 'commit'>

/** One figure of a compared test, with its verdict as a person reads it (`unchanged (within noise)`). */
export type ComparedFigure = FigureComparison & { verdict_text: string }

/** A test both sides ran: its figures compared, and each side's runs for the charts. */
export interface ComparedTest {
  id: string
  verdict: Verdict
  /** The quarantine file's entry: compared and shown, never counted as a regression; null for a gated test. */
  quarantined: { reason: string; date: string } | null
  /** Pass rate first, then the numeric figures both sides have. */
  figures: ComparedFigure[]
  baseline_runs: RunFigures[]
  current_runs: RunFigures[]
}

/**
 * `GET /api/comparison`, and the Comparison page of a report: regression or
 * noise, as `reagent-flow compare` says it, with the runs behind each verdict.
 */
export interface ComparisonPayload {
  baseline: { path: string; files: number }
  current: { path: string; files: number }
  confidence: number
  correction: 'benjamini-hochberg'
  /** The gated tests, regressed first, then improved, then unchanged (by id within each); then the quarantined ones, by id. */
  tests: ComparedTest[]
  /** Tests only the baseline ran (removed or renamed). */
  only_in_baseline: string[]
  /** Tests only the current side ran (new or renamed). */
  only_in_current: string[]
  /** Tests whose runs of one commit both passed and failed. */
  flaky: Array<{ id: string; commit: string | null; passed: number; failed: number }>
  /** Quarantine entries that match no compared test. */
  unmatched_quarantine: Array<{ test: string; reason: string; date: string }>
}

/** The JSON a static report embeds. */
export interface ReportData {
  runs: RunsPayload
  generated_at: number
  traces: Record<string, CompactTrace>
  stack_traces: Record<string, string>
  /** Each run's diff against its golden with default options, as the server computes it (other options are computed in the page). */
  golden_diffs: Record<string, TraceDiff>
  /** The command that makes each run its golden. */
  approve_commands: Record<string, string>
  /** The spend of each run that has helper runs (see RunPayload.spend). */
  spends?: Record<string, Spend>
  /** The comparison with a baseline (`report --results --baseline`); absent without one. */
  comparison?: ComparisonPayload
}
