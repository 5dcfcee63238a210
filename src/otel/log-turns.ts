/**
 * Planned turns (see run-plan.ts) into a session, through its recording API:
 * each model call as a turn, timed by its span, then the tool results of its
 * calls. Shared by `reagent-flow import` and the live span processor, so a
 * span becomes the same turn either way.
 */
import type { Session } from '../session/session.js'
import { REAGENT } from './attributes.js'
import { ownObject } from './own-attributes.js'
import type { RunPlan, ToolPlan, TurnPlan } from './run-plan.js'
import type { SpanRecord } from './span-record.js'

function msBetween(start: number, end: number): number {
  return Math.max(0, Math.round((end - start) * 1e6) / 1e3)
}

/** An error as the recorder takes it, without a stack of our making. */
function errorOf({ name, message }: { name: string; message: string }): Error {
  const error = new Error(message)
  error.name = name
  error.stack = ''
  return error
}

function logResult(s: Session, tool: ToolPlan | { span: SpanRecord; draft: ToolPlan['draft'] }, callId: string | undefined): void {
  const { draft, span } = tool
  const outcome = draft.error === null ? { result: draft.result } : { error: draft.error }
  s.logToolResult(draft.name, { ...outcome, ...(callId === undefined ? {} : { callId }), durationMs: msBetween(span.start, span.end) })
}

function logTurn(s: Session, turn: TurnPlan): void {
  const { llm, span } = turn
  const ownCall = ownObject(span.attributes.get(REAGENT.llmCall))
  const ownError = ownCall?.['error'] as { name: string; message: string } | undefined
  const error = ownError ?? llm.error
  const ids = s.logLlmCall({
    messages: llm.messages,
    responseText: llm.responseText,
    toolCalls: llm.toolCalls,
    model: llm.model,
    tokenUsage: (ownCall?.['token_usage'] as Record<string, unknown> | null | undefined) ?? llm.tokenUsage,
    timestamp: span.start,
    // A call reagent-flow exported without a latency had none.
    ...(ownCall !== undefined && ownCall['latency_ms'] === null ? {} : { latencyMs: msBetween(span.start, span.end) }),
    stopReason: llm.stopReason,
    provider: llm.provider,
    ...(error === null || error === undefined ? {} : { error: errorOf(error) }),
  })
  for (const tool of turn.tools) logResult(s, tool, tool.callIndex === null ? (tool.draft.callId ?? undefined) : ids[tool.callIndex])
  // The turn lasts until its last tool ended (the recorder measures it against the clock, which for old spans is now).
  const lastEnd = turn.tools.reduce((end, tool) => Math.max(end, tool.span.end), span.end)
  const ownTurn = ownObject(span.attributes.get(REAGENT.turn))
  const durationMs = typeof ownTurn?.['duration_ms'] === 'number' ? ownTurn['duration_ms'] : msBetween(span.start, lastEnd)
  amendLatestTurn(s, { ...asObject(ownTurn?.['extra']), duration_ms: durationMs }, asObject(ownCall?.['extra']))
}

/**
 * Sets keys of the session's latest turn and of its LLM call that the
 * recorder measured otherwise or does not know: a span's own duration, the
 * extra keys a trace exported by reagent-flow carries. False without a turn.
 */
function amendLatestTurn(s: Session, turn: Readonly<Record<string, unknown>>, llmCall: Readonly<Record<string, unknown>> = {}): boolean {
  const last = s.trace.turns.at(-1)
  if (last === undefined) return false
  Object.assign(last, turn)
  Object.assign(last.llm_call, llmCall)
  return true
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

/** Logs the run's turns (and the tool results before its first model call) into `s`. */
export function logRun(s: Session, run: RunPlan): void {
  for (const orphan of run.orphanTools) logResult(s, orphan, orphan.draft.callId ?? undefined)
  for (const turn of run.turns) logTurn(s, turn)
}
