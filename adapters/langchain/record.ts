/**
 * From LangChain callbacks to the session: a run is started when its start
 * callback fires inside a session, and recorded into that session when it
 * ends. A model run is a ModelCall (the lifecycle every adapter shares); a
 * tool run is recorded here. Nothing here throws into LangChain but a model
 * call started past the session's limits (`BudgetExceededError`): every
 * step goes through `recordSafely`.
 */
import type { LLMResult } from '@langchain/core/outputs'
import { currentSession, ModelCall, recordSafely, startModelCall, type Session } from '../../src/adapter-support/index.js'
import { ADAPTER, chatModelCalls, drainBackgroundCallbacks, type ModelStart } from './model-calls.js'
import { addRun, hasRun, takeRun, takeUnfinishedRuns, type Run, type ToolRun } from './runs.js'
import { unwrapToolOutput } from './tool-output.js'
import { answerInvalidToolCallsAtClose } from './invalid-tool-calls.js'
import { internals } from '../../src/adapter-support/index.js'

function unfinishedError(session: Session): Error {
  const error = new Error(
    `the LangChain run had not ended when session "${session.name}" closed (a stream left before its end, or a call not awaited inside the session)`,
  )
  error.name = 'UnfinishedRunError'
  // The stack would only point into this adapter.
  error.stack = ''
  return error
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

function recordToolRun(run: ToolRun, outcome: Outcome): void {
  recordSafely(ADAPTER, 'a tool result', () =>
    run.session.logToolResult(run.name, {
      ...(outcome.ok ? unwrapToolOutput(outcome.value) : { error: outcome.error }),
      ...(run.callId === undefined ? {} : { callId: run.callId }),
      durationMs: performance.now() - run.startedAt,
      // traceTool() may have recorded this execution already.
      skipIfRecorded: true,
    }),
  )
}

/**
 * Waits for LangChain's background callbacks, then records the session's runs
 * that never ended, so the trace shows every call that was made: a model run
 * is cut short as every adapter's calls are, a tool run gets the error.
 */
async function settleSession(session: Session): Promise<void> {
  await drainBackgroundCallbacks()
  for (const run of takeUnfinishedRuns(session)) {
    if (run instanceof ModelCall) await run.cutShort()
    else recordToolRun(run, { ok: false, error: unfinishedError(session) })
  }
}

function start(runId: string, build: (session: Session) => Run | undefined): void {
  const session = currentSession()
  // A second handler seeing the same run (global and explicit) leaves it to the first.
  if (session === undefined || hasRun(runId)) return
  recordSafely(ADAPTER, 'the start of a run', () => {
    const run = build(session)
    if (run !== undefined && addRun(runId, run)) session[internals].beforeClose(() => settleSession(session))
  })
}

export function startModelRun(runId: string, model: ModelStart): void {
  start(runId, (session) => startModelCall(session, chatModelCalls, model))
}

export function startToolRun(runId: string, name: string, input: unknown, toolCallId: string | undefined): void {
  start(runId, (session) => ({
    session,
    name,
    // Without LangChain's id (a tool invoked with bare arguments), take the pending call of this tool, matching arguments.
    callId: toolCallId !== undefined && toolCallId !== '' ? toolCallId : session[internals].claimPendingCall(name, input),
    startedAt: performance.now(),
  }))
}

/** Records the run as ended with `value` (an LLMResult, or a tool's output). */
export function endRun(runId: string, value: unknown): void {
  const run = takeRun(runId)
  if (run instanceof ModelCall) {
    run.receive(value as LLMResult)
    recordSafely(ADAPTER, 'the invalid tool calls of a response', () => answerInvalidToolCallsAtClose(run.session, value as LLMResult))
  } else if (run !== undefined) recordToolRun(run, { ok: true, value })
}

/** Records the run as failed with `error`. */
export function failRun(runId: string, error: unknown): void {
  const run = takeRun(runId)
  if (run instanceof ModelCall) run.fail(error)
  else if (run !== undefined) recordToolRun(run, { ok: false, error })
}
