/**
 * The journal's records: one JSON object per line, appended while a session
 * is open, so that a run that never finishes is still on disk.
 *
 *   {"journal":1,"kind":"open","writer":{...},"trace":{...}}   the run's fields (turns empty, status "active")
 *   {"kind":"turn","turn":{...}}                                a model call opened turn N (messages as in files)
 *   {"kind":"result","turn":N,"result":{...},"duration_ms":D,"unmatched":"name"?,"injected":true?}
 *   {"kind":"orphan","result":{...}}                            a result logged before any model call
 *   {"kind":"tool_set","id":"ts_…","tools":[...]}                a set of tools offered, once, before the turn that first offered it
 *   {"kind":"exchange","endpoint":...,"request":{...},"response":{...}}   a model call's request (normal form) and raw answer
 *   {"kind":"tool","name":...,"input":...,"result":...,"async":true}      a traceTool execution and its outcome
 *   {"kind":"close","status":...,"ended_at":...,...}            the session closed (a kept journal: failed, cancelled, interrupted)
 *
 * Readers skip kinds they do not know, so later versions can add records
 * without breaking older readers (0.1's readers skip `exchange` and `tool`).
 * A last line cut short by a crash is ignored. `exchange` and `tool` records
 * are the steps a run completed, which `resume()` answers from (see
 * src/replay/); a recording file holds the same two shapes.
 */
import { markInjected } from '../trace/injected-mark.js'
import { expandMessages } from '../trace/messages.js'
import type { JsonValue, RecordedError, ToolDefinition, ToolResult, Trace, TraceStatus, Turn } from '../trace/types.js'
import { warn } from '../warnings/warnings.js'
import { recordProblem } from './journal-records.js'

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
  /** False when the session's trace file could not be written (a full disk): the journal is then the run's only record. */
  trace_written?: false
}

/** One Server-Sent Event of a recorded stream: its data as JSON, or as text when it is not JSON (`[DONE]`). */
export type RecordedEvent = { event?: string; data: JsonValue } | { event?: string; text: string }

/**
 * What a model call got back, as it is kept to answer the call again. At the
 * HTTP layer (the instrumented `fetch` of the SDKs built by Stainless): the
 * status and the body, whole (JSON, text, bytes) or as its events. At a
 * model's own layer (AI SDK, LangChain, Agents SDK): the value its method
 * returned, or the chunks its stream yielded, in JSON form. Never headers.
 */
export type RecordedResponse =
  | { status: number; body: JsonValue }
  | { status: number; events: RecordedEvent[] }
  | { status: number; text: string; content_type: string }
  | { status: number; base64: string; content_type: string }
  | { value: JsonValue }
  | { chunks: JsonValue[] }

/** A model call that completed: what it asked (in normal form, see src/replay/normalize.ts) and what it got. */
export interface ExchangeRecord {
  kind: 'exchange'
  /** Who and what was called: `openai POST /chat/completions`, `ai-sdk openai.chat doStream`. */
  endpoint: string
  request: JsonValue
  response: RecordedResponse
}

/** A `traceTool` execution: the tool, its input (first argument), and how it ended. */
export interface ToolRecord {
  kind: 'tool'
  name: string
  input: JsonValue
  /** The value it returned (JSON form); absent when it threw. */
  result?: JsonValue
  /** What it threw; absent when it returned. */
  error?: { name: string; message: string }
  /** It returned a promise: a replay answers with one too. */
  async: boolean
}

/** A step a run completed: what `resume()` and recordings answer from. */
export type StepRecord = ExchangeRecord | ToolRecord

export type JournalRecord =
  | OpenRecord
  | { kind: 'turn'; turn: Turn }
  | { kind: 'result'; turn: number; result: ToolResult; duration_ms: number; unmatched?: string; injected?: true }
  | { kind: 'orphan'; result: ToolResult & { name: string } }
  | { kind: 'tool_set'; id: string; tools: ToolDefinition[] }
  | StepRecord
  | CloseRecord
  | LostRecord

/** The journal could not be written from here on (a full disk): what follows in the run is missing from it. */
export interface LostRecord {
  kind: 'lost'
  /** Why: the file system's code (`ENOSPC`) or message. */
  error: string
}

/** A journal as read back. */
export interface JournalContent {
  writer: JournalWriterId
  /** The run as far as it was recorded; status "active" until a close record says otherwise. */
  trace: Trace
  /** The close record, when the session closed (a kept journal). */
  closed: CloseRecord | undefined
  /** The model calls and tool executions the run completed, in the order they completed. */
  steps: StepRecord[]
  /** Set when the journal lost records: after how many turns, and why. */
  lost: { turns: number; error: string } | undefined
}

function isRecord(value: unknown): value is { kind: string } & Record<string, unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { kind?: unknown }).kind === 'string'
}

const warnedDamaged = new Set<string>()

/** One warning per damaged line and process: journals are read by every sweep. */
function warnDamaged(file: string, line: number, kind: string, problem: string): void {
  const key = `${file}:${line}`
  if (warnedDamaged.has(key)) return
  warnedDamaged.add(key)
  warn(
    'REAGENT_READ',
    `the journal ${file} has a "${kind}" record of the wrong type at line ${line} (${problem}); the run is read up to the line before it. ` +
      'Delete the journal to forget the run, or fix the line.',
  )
}

/**
 * The run a journal's text records. Throws a plain Error when the text does
 * not start with an open record (the caller names the file). A line cut
 * short by a crash is skipped; a record of the wrong type ends the reading
 * of the run there, with a warning naming the file and the line (a later
 * close record still applies).
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
  const steps: StepRecord[] = []
  let damagedAt: number | undefined
  let lost: JournalContent['lost']
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
    // After a record of the wrong type the run is read no further (later records may refer to
    // what it held), but a close record still says how the session ended.
    if (damagedAt !== undefined && record.kind !== 'close') continue
    const problem = recordProblem(record)
    if (problem !== undefined) {
      if (damagedAt === undefined) damagedAt = i
      warnDamaged(file, i + 1, record.kind, problem)
      continue
    }
    if (record.kind === 'lost') {
      lost ??= { turns: trace.turns.length, error: String(record.error) }
      continue
    }
    applyRecord(trace, record as JournalRecord, (close) => (closed = close), steps)
  }
  expandMessages(trace.turns, file)
  if (closed !== undefined) closeTrace(trace, closed)
  return { writer: open.writer, trace, closed, steps, lost }
}

function applyRecord(trace: Trace, record: JournalRecord, onClose: (close: CloseRecord) => void, steps: StepRecord[]): void {
  switch (record.kind) {
    case 'exchange':
    case 'tool':
      steps.push(record)
      return
    case 'turn':
      trace.turns.push(record.turn)
      return
    case 'result': {
      const turn = trace.turns[record.turn]
      if (turn === undefined) return
      turn.tool_results.push(record.result)
      turn.duration_ms = record.duration_ms
      if (record.unmatched !== undefined) (turn.unmatched_results ??= []).push({ call_id: record.result.call_id, name: record.unmatched })
      if (record.injected === true) markInjected(turn, record.result.call_id)
      return
    }
    case 'orphan':
      ;(trace.orphan_results ??= []).push(record.result)
      return
    case 'tool_set':
      ;(trace.tool_sets ??= {})[record.id] = record.tools
      return
    case 'close':
      onClose(record)
      return
    case 'lost':
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
