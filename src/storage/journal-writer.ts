/**
 * Writing a session's journal while it records: each turn, result and
 * orphan result is queued as it is logged (a reference and a number, no
 * serialising on the hot path) and appended, as JSON Lines, by a timer that
 * runs FLUSH_MS after the first queued record. So every turn recorded more
 * than FLUSH_MS before the process dies is on disk, as long as the event
 * loop was free in that time; at process exit the queue is written at once.
 *
 * Appends reach the operating system before the timer returns (synchronous
 * writes): a SIGKILL or an out-of-memory crash of the process loses nothing
 * that was flushed. No file descriptor is kept open per session, so any
 * number of sessions can be open at once.
 *
 * When a flush takes a turn it redacts the turn as the trace file holds it
 * then, once: the turn's line (as it was logged), the records of the results
 * it has by then, and its text in the trace file (trace/turn-fragments.ts)
 * all come from that copy, so the file written at the close serialises only
 * what changed since.
 */
import { appendFileSync, mkdirSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { runTurn, runTurnsText, type PieceRedactor } from '../trace/trace-text.js'
import type { TurnFragments } from '../trace/turn-fragments.js'
import type { JsonValue, ToolDefinition, ToolResult, Trace, Turn } from '../trace/types.js'
import { warn } from '../warnings/warnings.js'
import { openRecord, type CloseRecord, type JournalRecord, type StepRecord } from './journal-format.js'
import { currentWriter, HEARTBEAT_MS } from './liveness.js'

/** The longest a logged turn waits before it is appended. */
export const FLUSH_MS = 40

type Queued =
  | { kind: 'turn'; index: number; durationMs: number }
  | { kind: 'step'; step: () => StepRecord | undefined }
  | { kind: 'result'; turn: number; result: ToolResult; durationMs: number; unmatched: string | undefined; injected: boolean }
  | { kind: 'orphan'; result: ToolResult & { name: string } }
  | { kind: 'tool_set'; id: string; tools: ToolDefinition[] }

/** What the recorder tells its listener as it records. */
export interface RecordingListener {
  onTurn(index: number, durationMs: number): void
  onResult(turn: number, result: ToolResult, turnDurationMs: number, unmatchedName?: string, injected?: boolean): void
  onOrphan(result: ToolResult & { name: string }): void
  /** A set of tools offered, stored once on the trace (before the turn of the call that first offered it). */
  onToolSet(id: string, tools: ToolDefinition[]): void
}

/**
 * Where the steps a run completes go (model calls with their raw answers,
 * tool executions), for `resume()`. `step` builds the record when the
 * journal is flushed, off the call's path; undefined skips it.
 */
export interface StepListener {
  onStep(step: () => StepRecord | undefined): void
}

const open = new Set<JournalWriter>()
const dirty = new Set<JournalWriter>()
// biome-ignore lint/correctness/noUnusedVariables: read by `??=` when a write schedules the next flush
let flushTimer: NodeJS.Timeout | undefined
let heartbeat: NodeJS.Timeout | undefined

function flushDirty(): void {
  flushTimer = undefined
  for (const writer of [...dirty]) writer.flush()
}

function touchOpen(): void {
  const now = new Date()
  for (const writer of open) writer.touch(now)
}

function onExit(): void {
  flushDirty()
}

function track(writer: JournalWriter): void {
  if (open.size === 0) {
    heartbeat = setInterval(touchOpen, HEARTBEAT_MS).unref()
    process.on('exit', onExit)
  }
  open.add(writer)
}

function untrack(writer: JournalWriter): void {
  open.delete(writer)
  dirty.delete(writer)
  if (open.size > 0) return
  clearInterval(heartbeat)
  heartbeat = undefined
  process.off('exit', onExit)
}

export class JournalWriter implements RecordingListener, StepListener {
  readonly path: string
  readonly #turns: readonly Turn[]
  readonly #redactor: PieceRedactor | undefined
  /** Where the file text of each turn taken goes, for the trace file (see trace/turn-fragments.ts). */
  readonly #fragments: TurnFragments | undefined
  /** Turns taken with results already on them: those results redacted (with the turn), for their own records, in order. */
  readonly #takenResults = new Map<number, { results: readonly ToolResult[]; next: number }>()
  #queue: Queued[] = []
  #isBroken = false
  /** The bytes appended so far: where a failed append is cut back to, so the journal ends on a whole line. */
  #bytes = 0

  private constructor(path: string, turns: readonly Turn[], redactor: PieceRedactor | undefined, fragments: TurnFragments | undefined) {
    this.path = path
    this.#turns = turns
    this.#redactor = redactor
    this.#fragments = fragments
  }

  /**
   * Creates the journal of `trace` at `path` with its open record. On a
   * failure (an unwritable directory), warns and returns undefined: the
   * session records in memory as before. `fragments`: where the file text
   * of each turn it takes is kept, made from the same redacted copy.
   */
  static create(path: string, trace: Trace, turns: readonly Turn[], redactor: PieceRedactor | undefined, fragments?: TurnFragments): JournalWriter | undefined {
    const writer = new JournalWriter(path, turns, redactor, fragments)
    try {
      mkdirSync(dirname(path), { recursive: true })
      const open = writer.#line(openRecord(currentWriter(), trace))
      writeFileSync(path, open, { flag: 'wx' })
      writer.#bytes = Buffer.byteLength(open)
    } catch (error) {
      warnBroken(trace.name, path, error)
      return undefined
    }
    track(writer)
    return writer
  }

  onTurn(index: number, durationMs: number): void {
    this.#enqueue({ kind: 'turn', index, durationMs })
  }

  onResult(turn: number, result: ToolResult, turnDurationMs: number, unmatchedName?: string, injected = false): void {
    // A result reaching a turn already taken: its text is made again for the file.
    this.#fragments?.changed(turn)
    this.#enqueue({ kind: 'result', turn, result, durationMs: turnDurationMs, unmatched: unmatchedName, injected })
  }

  onOrphan(result: ToolResult & { name: string }): void {
    this.#enqueue({ kind: 'orphan', result })
  }

  onToolSet(id: string, tools: ToolDefinition[]): void {
    this.#enqueue({ kind: 'tool_set', id, tools })
  }

  onStep(step: () => StepRecord | undefined): void {
    this.#enqueue({ kind: 'step', step })
  }

  #enqueue(item: Queued): void {
    if (this.#isBroken) return
    this.#queue.push(item)
    if (this.#queue.length === 1) {
      dirty.add(this)
      flushTimer ??= setTimeout(flushDirty, FLUSH_MS).unref()
    }
  }

  /** The record of a queued item but a turn (#turnLine writes those); undefined to write none. */
  #record(item: Exclude<Queued, { kind: 'turn' }>): JournalRecord | undefined {
    switch (item.kind) {
      case 'step':
        return item.step()
      case 'result': {
        const record: JournalRecord = { kind: 'result', turn: item.turn, result: item.result, duration_ms: item.durationMs }
        if (item.unmatched !== undefined) record.unmatched = item.unmatched
        if (item.injected) record.injected = true
        return record
      }
      case 'orphan':
      case 'tool_set':
        return item
    }
  }

  /**
   * The line of a queued turn: the turn as it was logged (what its results
   * add to it later, the results and their marks, comes from their own
   * records, which may be flushed with it or after it). It is redacted as
   * the trace file holds it now, once: that copy is the turn's file text
   * (`taken`, serialised by the flush) and gives the redacted results of
   * their records.
   */
  #turnLine(item: { index: number; durationMs: number }, taken: unknown[] | undefined): string {
    const redactor = this.#redactor
    const fileTurn = runTurn(this.#turns, item.index)
    const turn = redactor === undefined ? fileTurn : redactor.redact(fileTurn as unknown as JsonValue & Turn)
    taken?.push(turn)
    if (redactor !== undefined && turn.tool_results.length > 0) this.#takenResults.set(item.index, { results: turn.tool_results, next: 0 })
    const duration = JSON.stringify(item.durationMs)
    if (hasTurnKeysOnly(turn)) {
      // The usual turn, written without the two copies the general case makes (the same bytes).
      return `{"kind":"turn","turn":{"index":${JSON.stringify(turn.index)},"llm_call":${JSON.stringify(turn.llm_call)},"tool_results":[],"duration_ms":${duration}}}\n`
    }
    const { unmatched_results: _unmatched, injected: _injected, injected_results: _injectedResults, ...logged } = turn
    return `{"kind":"turn","turn":${JSON.stringify({ ...logged, tool_results: [], duration_ms: item.durationMs })}}\n`
  }

  /** The line of a result record, its result redacted with its turn when the turn was taken after it. */
  #resultLine(record: Extract<JournalRecord, { kind: 'result' }>): string {
    const taken = this.#takenResults.get(record.turn)
    const result = taken?.results[taken.next]
    if (taken === undefined || result === undefined) return this.#line(record)
    if (++taken.next === taken.results.length) this.#takenResults.delete(record.turn)
    // The record's keys in its order, as JSON.stringify of it writes them.
    let line = `{"kind":"result","turn":${record.turn},"result":${JSON.stringify(result)},"duration_ms":${JSON.stringify(record.duration_ms)}`
    if (record.unmatched !== undefined) line += `,"unmatched":${JSON.stringify(this.#redactor!.redact(record.unmatched))}`
    if (record.injected === true) line += ',"injected":true'
    return `${line}}\n`
  }

  #line(record: JournalRecord): string {
    const redactor = this.#redactor
    return `${JSON.stringify(redactor === undefined ? record : redactor.redact(record as unknown as JsonValue))}\n`
  }

  /** Appends what is queued. Never throws: a failure is warned about once and ends the journal. */
  flush(): void {
    dirty.delete(this)
    const queue = this.#queue
    if (queue.length === 0 || this.#isBroken) return
    this.#queue = []
    this.#append(this.#lines(queue))
  }

  #lines(queue: readonly Queued[]): string {
    let text = ''
    const fragments = this.#fragments
    // The turns taken by this flush, in order, for their file text: one serialisation of them all.
    const taken: unknown[] | undefined = fragments === undefined ? undefined : []
    let firstTaken = -1
    for (const item of queue) {
      try {
        if (item.kind === 'turn') {
          if (firstTaken === -1) firstTaken = item.index
          // Taken turns are consecutive (recorded and queued in order); should one not be, the file serialises the rest itself.
          const next = taken !== undefined && firstTaken + taken.length === item.index ? taken : undefined
          text += this.#turnLine(item, next)
          continue
        }
        const record = this.#record(item)
        if (record !== undefined) text += record.kind === 'result' ? this.#resultLine(record) : this.#line(record)
      } catch (error) {
        // A record that cannot be written (a step's body that is not what it claimed) costs that record, never the journal.
        warn(
          'REAGENT_WRITE',
          `the journal ${this.path} skipped a ${item.kind} record it could not write (${error instanceof Error ? error.message : String(error)}).`,
        )
      }
    }
    if (fragments !== undefined && taken !== undefined && taken.length > 0) {
      let turnsText: string | undefined
      try {
        turnsText = runTurnsText(taken)
      } catch {
        // No text kept: the file's writer serialises these turns itself, and says what is wrong with them.
      }
      if (turnsText !== undefined) fragments.add(this.#turns, firstTaken, taken.length, turnsText)
    }
    return text
  }

  #append(text: string): void {
    try {
      appendFileSync(this.path, text)
      this.#bytes += Buffer.byteLength(text)
    } catch (error) {
      this.#isBroken = true
      warnBroken(undefined, this.path, error)
      this.#markLost(error)
    }
  }

  /**
   * After a failed append (a full disk): the journal is cut back to its last
   * whole line and told, in one short record, that what follows was lost, so
   * a reader never takes it for the whole run. Cutting back frees the part of
   * the last block the failed append took, which is where the record goes.
   */
  #markLost(error: unknown): void {
    const code = (error as NodeJS.ErrnoException | null)?.code
    try {
      truncateSync(this.path, this.#bytes)
      const line = this.#line({ kind: 'lost', error: code ?? (error instanceof Error ? error.message : String(error)) })
      appendFileSync(this.path, line)
      this.#bytes += Buffer.byteLength(line)
    } catch {
      // Not even that fits: the reader sees a journal that stops, and the warning above said why.
    }
  }

  /** The heartbeat: readers take a journal untouched for long as one whose writer is gone. */
  touch(now: Date): void {
    try {
      utimesSync(this.path, now, now)
    } catch {
      // A journal that vanished (a sweep took it for dead) is written again by the next flush.
    }
  }

  /**
   * Ends the journal: removed for a run that completed (its trace file says
   * everything), else kept with its close record (a failed, cancelled or
   * interrupted run can be resumed from it).
   */
  finish(close: CloseRecord | 'remove'): void {
    untrack(this)
    if (close === 'remove') {
      this.#queue = []
      rmSync(this.path, { force: true })
      return
    }
    const queue = this.#queue
    this.#queue = []
    if (!this.#isBroken) {
      this.#append(this.#lines(queue) + this.#line(close))
      if (!this.#isBroken) return
    }
    // A journal that lost records still gets its close record when it fits: how the session ended.
    try {
      appendFileSync(this.path, this.#line(close))
    } catch {
      // The reader sees the run as interrupted where its journal stops.
    }
  }
}

const TURN_KEYS = ['index', 'llm_call', 'tool_results', 'duration_ms']

/** The turn has the four keys every turn has, in their order, and no other (no mark, no note). */
function hasTurnKeysOnly(turn: Turn): boolean {
  let n = 0
  for (const key in turn) if (key !== TURN_KEYS[n++]) return false
  return n === TURN_KEYS.length
}

function warnBroken(name: string | undefined, path: string, error: unknown): void {
  warn(
    'REAGENT_WRITE',
    `${name === undefined ? '' : `session "${name}": `}the journal ${path} could not be written (${error instanceof Error ? error.message : String(error)}); ` +
      `the run is recorded in memory and written when the session closes, but a crash before that would lose it.`,
  )
}
