export { session, Session } from './session.js'
export { currentSession, getRunContext } from './context.js'
export { traceTool } from './trace-tool.js'
export {
  ReagentError,
  SessionClosedError,
  AmbiguousToolCallError,
  TraceNotFoundError,
  TraceFormatError,
  AgentAssertionError,
  isReagentError,
} from './errors.js'
export { loadTrace, loadGolden, saveTrace, tracePath, sanitizeName, fileGoldenStore, DEFAULT_TRACE_DIR } from './storage.js'
export { validateTrace } from './trace/validate.js'
export { normalizeTrace } from './trace/normalize.js'
export { diffTraces } from './diff/diff-traces.js'
export { formatDiff } from './diff/format.js'
export { matchGolden, resolveUpdateMode, UPDATE_MODES } from './golden.js'
export { assertMatchesBaseline } from './assert/baseline.js'
export { REDACTED, DEFAULT_SECRET_KEYS, DEFAULT_SECRET_VALUES } from './trace/redact.js'

export type { SessionOptions, SessionFn } from './session.js'
export type { RunContext } from './context.js'
export type { TraceToolOptions } from './trace-tool.js'
export type { LlmCallInput, ToolCallInput, ToolResultInput } from './recorder.js'
export type { SaveOptions, TraceLocation, GoldenStore } from './storage.js'
export type { RedactOption } from './trace/redact.js'
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
} from './diff/types.js'
export type { FormatDiffOptions } from './diff/format.js'
export type { UpdateMode, UpdateModeSources, MatchGoldenOptions, MatchGoldenResult } from './golden.js'
export type { BaselineOptions } from './assert/baseline.js'
export type { ReagentWarningCode } from './warnings.js'
export type {
  Trace,
  Turn,
  LLMCall,
  ToolCall,
  ToolResult,
  Message,
  TokenUsage,
  TraceStatus,
  Grade,
  RecordedError,
  UnmatchedResult,
  JsonValue,
  JsonObject,
} from './trace/types.js'
