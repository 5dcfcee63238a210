/**
 * What adapters, tool wrappers and the test runner do to a session that its
 * user never does: record a model call they admitted, keep the session open
 * for background work, close it from outside. Reached through one symbol,
 * `session[hooks]`, exported from this internal module only, so a Session's
 * public surface is what a test needs: its trace, its output and the
 * assertions.
 */
import type { AgentAssertionError, BudgetExceededError } from '../errors/index.js'
import type { LlmCallInput, ToolOutcome } from './recorder.js'

export const hooks: unique symbol = Symbol('reagent-flow session hooks')

export interface SessionHooks {
  /** Records a model call that `admitModelCall()` let through before it was made: never stopped by the run's limits, only counted toward them. */
  recordModelCall(call: LlmCallInput): string[]
  /** A model call is about to be made: the `BudgetExceededError` to throw instead when the run went past a limit; otherwise counts it. */
  admitModelCall(): BudgetExceededError | undefined
  /**
   * Tool `tool` is about to run: what the call fails with instead of running
   * (a `BudgetExceededError`, or an injected fault, `injected: true`), or
   * undefined when it runs.
   */
  admitToolCall(tool: string): { error: unknown; injected: boolean } | undefined
  /**
   * For adapters that see a tool's result only in the agent's next request:
   * records `outcome()` as the result of call `callId`, named after its tool.
   * A call this session did not record (history from before it began) or that
   * has a result already is left alone, and `outcome` is not called.
   * `durationMs` defaults to the time since the response that made the call.
   */
  logResultOf(callId: string, outcome: () => ToolOutcome, durationMs?: number): void
  /** Takes the pending call of `toolName` an execution is about to answer (matching `args`, an object or its JSON text, when several are pending). */
  claimPendingCall(toolName: string, args?: unknown): string | undefined
  /** The tool name of a call id recorded in this session. */
  toolNameOf(callId: string): string | undefined
  /** Keeps the session open until `work` settles (callbacks that run in the background); its rejection is not the agent's error. */
  track(work: PromiseLike<unknown>): void
  /** Runs `hook` (awaited) after the session's function settled and its tracked work is done, before the trace is finalised. */
  beforeClose(hook: () => unknown): void
  /**
   * Closes the session at once from outside, as `cancelled` (a signal, a test
   * that timed out) or `interrupted` (the process is exiting), with `reason`,
   * writing its trace synchronously; what the agent logs afterwards is
   * dropped with one warning. Does nothing on a closed session.
   */
  closeNow(status: 'cancelled' | 'interrupted', reason: string): void
  /** Inside a test: should the test fail, its output also shows this run's agent stack trace and its file. */
  explainFailureInTest(): void
  /** The failed `golden: true` comparison, if any (session() rejects with it). */
  goldenFailure(): AgentAssertionError | undefined
  /**
   * The run was compared with its golden (`toMatchGolden()`): its trace
   * says so (`golden: true`), in its file too once closed, so that
   * `reagent-flow approve --all` approves it.
   */
  askGolden(): void
}
