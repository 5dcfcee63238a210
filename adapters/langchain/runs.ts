/**
 * The LangChain runs in flight, by run id, each with the session it records into.
 *
 * A run belongs to the session that was active when it started. Its end
 * callback may be called from elsewhere (LangChain's background callback
 * queue, a stream consumed in another async context), so the end finds the
 * session through the run id, never through the async context.
 *
 * One table for every handler instance: a run seen by two handlers (the one
 * `instrumentLangChain()` registered and one passed in `callbacks`) is taken
 * by the first and recorded once.
 */
import type { LLMResult } from '@langchain/core/outputs'
import type { ModelCall, Session } from '../../src/adapter-support/index.js'

/** A model run is a call of the lifecycle every adapter shares. */
export type ModelRun = ModelCall<LLMResult>

export interface ToolRun {
  readonly session: Session
  readonly name: string
  /** The call this run answers: LangChain's tool-call id, else the pending call claimed at start. */
  readonly callId: string | undefined
  readonly startedAt: number
}

export type Run = ModelRun | ToolRun

const runs = new Map<string, Run>()
const runIdsOf = new WeakMap<Session, Set<string>>()

/** True when a handler has already started this run. */
export function hasRun(runId: string): boolean {
  return runs.has(runId)
}

/** Adds a run; true when it is the first of its session (so the caller can prepare the session's close). */
export function addRun(runId: string, run: Run): boolean {
  runs.set(runId, run)
  const ids = runIdsOf.get(run.session)
  if (ids !== undefined) {
    ids.add(runId)
    return false
  }
  runIdsOf.set(run.session, new Set([runId]))
  return true
}

/** The model run `runId` still in flight (not taken), for the hook that makes its call. */
export function modelRunOf(runId: string): ModelRun | undefined {
  const run = runs.get(runId)
  return run !== undefined && 'send' in run ? run : undefined
}

/** Removes and returns a run; undefined when it was never added or is already taken. */
export function takeRun(runId: string): Run | undefined {
  const run = runs.get(runId)
  if (run === undefined) return undefined
  runs.delete(runId)
  runIdsOf.get(run.session)?.delete(runId)
  return run
}

/** Removes and returns the runs of a session that have not ended, oldest first. */
export function takeUnfinishedRuns(session: Session): Run[] {
  const ids = runIdsOf.get(session)
  if (ids === undefined) return []
  return [...ids].map((id) => takeRun(id)).filter((run) => run !== undefined)
}
