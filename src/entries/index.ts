export { session, Session } from '../run/session.js'
export { assertOn } from '../assert/trace-assertions.js'
export type { TraceAssertions } from '../assert/trace-assertions.js'
export { assertCalled, assertNeverCalled, assertCalledBefore, assertToolSucceeded, assertCalledTimes } from '../assert/calls.js'
export { assertCalledWith } from '../assert/called-with.js'
export { assertFlow, ANY_CALLS } from '../assert/flow.js'
export { assertMaxTurns, assertTotalDurationUnder } from '../assert/budgets.js'
export { assertTotalTokensUnder, assertCostUnder } from '../assert/usage.js'
export {
  assertHandoffReceived,
  assertHandoffHasFields,
  assertHandoffMatches,
  assertNoExtraFields,
  assertContextPreserved,
} from '../assert/handoff.js'
export { assertToolOutputMatches } from '../assert/tool-output.js'
export { assertGoalReached } from '../run/goal.js'
export { assertEndedWithGoalMet, assertEndedWithinExchanges } from '../assert/conversation-end.js'
export { assertEveryReply } from '../assert/every-reply.js'
export { assertCalledBeforeExchange, assertNotCalledBeforeExchange } from '../assert/exchange-calls.js'
export { formatStackTrace } from '../report/stack-trace.js'
export { currentSession, getRunContext } from '../session/context.js'
export { traceTool } from '../adapter-support/trace-tool.js'
export { resume } from '../repeat/resume.js'
export { repeat } from '../repeat/repeat.js'
export type { RunSet } from '../repeat/run-set.js'
export { loadChain } from '../chain/load-chain.js'
export type { ChainNode } from '../chain/load-chain.js'
export {
  ReagentError,
  SessionClosedError,
  AmbiguousToolCallError,
  AmbiguousTraceError,
  TraceNotFoundError,
  TraceFormatError,
  TraceFileError,
  AgentAssertionError,
  BudgetExceededError,
  ToolFaultError,
  ModelFaultError,
  ReplayMissError,
  UnusedRecordingError,
  RecordingFormatError,
  ContractFileError,
  isReagentError,
  isSessionClosedError,
  isAmbiguousToolCallError,
  isAmbiguousTraceError,
  isTraceNotFoundError,
  isTraceFormatError,
  isTraceFileError,
  isAgentAssertionError,
  isBudgetExceededError,
  isToolFaultError,
  isModelFaultError,
  isOtlpFormatError,
  isOtlpExportError,
  isReplayMissError,
  isUnusedRecordingError,
  isRecordingFormatError,
  isContractFileError,
} from '../errors/index.js'
export { loadTrace } from '../storage/runs.js'
export { assertMatchesBaseline } from '../assert/baseline.js'
export { assertToolContract } from '../run/tool-contract.js'
export { matchToolContract, diffToolContracts, formatContractDiff } from '../contract/index.js'
export { toolsOffered } from '../trace/tools-offered.js'

export type { ClosedSession, SessionFn } from '../run/session.js'
export type { SessionOptions } from '../run/options.js'
export type { ReplayMode } from '../replay/mode.js'
export type { Fault, ModelFault, ModelFaultStatus, ToolFault } from '../faults/faults-option.js'
export type { Limits } from '../limits/limits-option.js'
export type { LimitName, StoppedCall } from '../errors/index.js'
export type { RepeatOptions, RepeatFn, RunPosition } from '../repeat/repeat.js'
export type { RunCheck, RunVerdict } from '../repeat/verdicts.js'
export type { RunSetSummary, RunSetRow } from '../repeat/summary.js'
export type { RunContext } from '../session/context.js'
export type { TraceSource } from '../assert/arguments.js'
export type { CallCount } from '../assert/calls.js'
export type { DurationOptions } from '../assert/budgets.js'
export type { CostOptions, ModelCost, TokenOptions } from '../assert/usage.js'
export type { GoalJudge, GoalJudgeInput, GoalJudgement, GoalOptions, GoalVerdict } from '../run/goal.js'
export type { AllowedFieldsOptions, PreservedFieldsOptions } from '../assert/handoff.js'
export type { AssertionSchema, JsonSchema, SchemaOptions, StandardSchemaLike } from '../assert/schema.js'
export type { AsymmetricMatcher } from '../assert/equality.js'
export type { ReplyCheck, ReplyContext } from '../assert/every-reply.js'
export type { StackTraceOptions } from '../report/stack-trace.js'
export type { TraceToolOptions } from '../adapter-support/trace-tool.js'
export type { LoadChainOptions } from '../chain/load-chain.js'
export type { LlmCallInput, ToolCallInput, ToolResultInput } from '../session/recorder.js'
export type { RedactOption } from '../redact/index.js'
export type { BaselineOptions } from '../assert/baseline.js'
export type { ToolContractOptions } from '../run/tool-contract.js'
export type { MatchToolContractOptions, MatchToolContractResult, ChangeClass, ContractChange, ContractDiff } from '../contract/index.js'
export type { ReagentWarningCode } from '../warnings/warnings.js'
export type {
  Trace,
  Turn,
  LlmCall,
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
  ToolDefinition,
  ToolKind,
} from '../trace/types.js'
