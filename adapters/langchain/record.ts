/**
 * From LangChain callbacks to the session: a run is started when its start
 * callback fires inside a session, and recorded into that session when it
 * ends. Nothing here throws into LangChain: every step goes through
 * `recordSafely`.
 */
import type { LLMResult } from '@langchain/core/outputs'
import { consumeCallback } from '@langchain/core/callbacks/promises'
import { currentSession, epochSeconds, recordSafely, type Session } from '../../src/adapter-support.js'
import { responseOf, toRecordedMessages } from './messages.js'
import { addRun, hasRun, takeRun, takeUnfinishedRuns, type ModelRun, type Run, type ToolRun } from './runs.js'
import { unwrapToolOutput } from './tool-output.js'

const ADAPTER = 'reagent-flow/langchain'

/**
 * Resolves once every callback LangChain queued in the background so far has
 * run: the queue runs one callback at a time, in order, so a marker added now
 * runs after them.
 */
function drainBackgroundCallbacks(): Promise<void> {
  return new Promise((resolve) => void consumeCallback(() => resolve(), false))
}

function unfinishedError(session: Session): Error {
  const error = new Error(
    `the LangChain run had not ended when session "${session.name}" closed ` +
      `(a stream left before its end, or a call not awaited inside the session)`,
  )
  error.name = 'UnfinishedRunError'
  // The stack would only point into this adapter.
  error.stack = ''
  return error
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

function recordToolRun(run: ToolRun, outcome: Outcome): void {
  run.session.logToolResult(run.name, {
    ...(outcome.ok ? unwrapToolOutput(outcome.value) : { error: outcome.error }),
    ...(run.callId === undefined ? {} : { callId: run.callId }),
    durationMs: performance.now() - run.startedAt,
    // traceTool() may have recorded this execution already.
    skipIfRecorded: true,
  })
}

function recordModelRun(run: ModelRun, outcome: Outcome): void {
  const call = { messages: toRecordedMessages(run.messages), timestamp: run.timestamp, latencyMs: performance.now() - run.startedAt }
  if (!outcome.ok) {
    run.session.logLlmCall({ ...call, model: run.model, error: outcome.error })
    return
  }
  const { responseModel, ...response } = responseOf(outcome.value as LLMResult)
  // The model the provider says answered (a dated snapshot), else the one asked for, as the other adapters do.
  run.session.logLlmCall({ ...call, ...response, model: responseModel ?? run.model })
}

function recordRun(run: Run, outcome: Outcome): void {
  recordSafely(ADAPTER, run.kind === 'model' ? 'a chat model call' : 'a tool result', () =>
    run.kind === 'model' ? recordModelRun(run, outcome) : recordToolRun(run, outcome),
  )
}

/**
 * Waits for LangChain's background callbacks, then records the session's runs
 * that never ended, so the trace shows every call that was made.
 */
async function settleSession(session: Session): Promise<void> {
  await drainBackgroundCallbacks()
  for (const run of takeUnfinishedRuns(session)) recordRun(run, { ok: false, error: unfinishedError(session) })
}

function start(runId: string, build: (session: Session) => Run): void {
  const session = currentSession()
  // A second handler seeing the same run (global and explicit) leaves it to the first.
  if (session === undefined || hasRun(runId)) return
  recordSafely(ADAPTER, 'the start of a run', () => {
    if (addRun(runId, build(session))) session.beforeClose(() => settleSession(session))
  })
}

export function startModelRun(runId: string, messages: readonly unknown[], model: string | null): void {
  start(runId, (session) => ({ kind: 'model', session, messages, model, timestamp: epochSeconds(), startedAt: performance.now() }))
}

export function startToolRun(runId: string, name: string, input: unknown, toolCallId: string | undefined): void {
  start(runId, (session) => ({
    kind: 'tool',
    session,
    name,
    // Without LangChain's id (a tool invoked with bare arguments), take the pending call of this tool, matching arguments.
    callId: toolCallId !== undefined && toolCallId !== '' ? toolCallId : session.claimPendingCall(name, input),
    startedAt: performance.now(),
  }))
}

/** Records the run as ended with `value` (an LLMResult, or a tool's output). */
export function endRun(runId: string, value: unknown): void {
  const run = takeRun(runId)
  if (run !== undefined) recordRun(run, { ok: true, value })
}

/** Records the run as failed with `error`. */
export function failRun(runId: string, error: unknown): void {
  const run = takeRun(runId)
  if (run !== undefined) recordRun(run, { ok: false, error })
}
