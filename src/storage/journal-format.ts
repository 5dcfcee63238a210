/**
 * The journal's records: one JSON object per line, appended while a session
 * is open, so that a run that never finishes is still on disk.
 *
 *   {"journal":1,"kind":"open","writer":{...},"trace":{...}}   the run's fields (turns empty, status "active")
 *   {"kind":"turn","turn":{...}}                                a model call opened turn N (messages as in files)
 *   {"kind":"result","turn":N,"result":{...},"duration_ms":D,"unmatched":"name"?}
 *   {"kind":"orphan","result":{...}}                            a result logged before any model call
 *   {"kind":"close","status":...,"ended_at":...,...}            the session closed (a kept journal: failed, cancelled, interrupted)
 *
 * Readers skip kinds they do not know, so later versions can add records
 * (the record/replay work adds each model call's raw exchange) without
 * breaking older readers. A last line cut short by a crash is ignored.
 */
import { expandMessages } from '../trace/messages.js'
import type { RecordedError, ToolResult, Trace, TraceStatus, Turn } from '../trace/types.js'

export const JOURNAL_VERSION = 1

/** Who writes a journal: read by later readers to tell whether the run is still being recorded. */
export interface JournalWriterId {
  pid: number
  /** The worker thread (0: the main thread). */
  thread: number
  host: string
}

export interface OpenRecord {
  journal: number
  kind: 'open'
  writer: JournalWriterId
  trace: Trace
}

export interface CloseRecord {
  kind: 'close'
  status: Exclude<TraceStatus, 'active'>
  ended_at: number
  error?: RecordedError | null
  interruption_reason?: string
}

export type JournalRecord =
  | OpenRecord
  | { kind: 'turn'; turn: Turn }
  | { kind: 'result'; turn: number; result: ToolResult; duration_ms: number; unmatched?: string }
  | { kind: 'orphan'; result: ToolResult & { name: string } }
  | CloseRecord

/** A journal as read back. */
export interface JournalContent {
  writer: JournalWriterId
  /** The run as far as it was recorded; status "active" until a close record says otherwise. */
  trace: Trace
  /** The close record, when the session closed (a kept journal). */
  closed: CloseRecord | undefined
}

function isRecord(value: unknown): value is { kind: string } & Record<string, unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { kind?: unknown }).kind === 'string'
}

/**
 * The run a journal's text records. Throws a plain Error when the text does
 * not start with an open record (the caller names the file); a damaged or
 * cut-short line after it ends the reading there.
 */
export function readJournalText(text: string, file: string): JournalContent {
  const lines = text.split('\n')
  const first = JSON.parse(lines[0] ?? '') as unknown
  if (!isRecord(first) || first.kind !== 'open' || typeof first.journal !== 'number' || first.trace === null || typeof first.trace !== 'object') {
    throw new Error('the first line is not the open record of a reagent-flow journal')
  }
  const open = first as unknown as OpenRecord
  const trace: Trace = { ...open.trace, turns: [], status: 'active', ended_at: null }
  let closed: CloseRecord | undefined
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!
    if (line === '') continue
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      // The process died in the middle of this line: skip it (a close record may follow it).
      continue
    }
    if (!isRecord(record)) continue
    applyRecord(trace, record as JournalRecord, (close) => (closed = close))
  }
  expandMessages(trace.turns, file)
  if (closed !== undefined) closeTrace(trace, closed)
  return { writer: open.writer, trace, closed }
}

function applyRecord(trace: Trace, record: JournalRecord, onClose: (close: CloseRecord) => void): void {
  switch (record.kind) {
    case 'turn':
      trace.turns.push(record.turn)
      return
    case 'result': {
      const turn = trace.turns[record.turn]
      if (turn === undefined) return
      turn.tool_results.push(record.result)
      turn.duration_ms = record.duration_ms
      if (record.unmatched !== undefined) (turn.unmatched_results ??= []).push({ call_id: record.result.call_id, name: record.unmatched })
      return
    }
    case 'orphan':
      ;(trace.orphan_results ??= []).push(record.result)
      return
    case 'close':
      onClose(record)
      return
  }
}

/** Puts what a close record says on the trace. */
export function closeTrace(trace: Trace, close: CloseRecord | Omit<CloseRecord, 'kind'>): void {
  trace.status = close.status
  trace.ended_at = close.ended_at
  if (close.error !== undefined) trace.error = close.error
  if (close.interruption_reason !== undefined) trace.interruption_reason = close.interruption_reason
}

/** The fields of the open record's trace: everything but the turns. */
export function openRecord(writer: JournalWriterId, trace: Trace): OpenRecord {
  const { turns: _turns, ...fields } = trace
  return { journal: JOURNAL_VERSION, kind: 'open', writer, trace: { ...fields, turns: [], status: 'active' } as Trace }
}

