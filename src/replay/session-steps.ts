/**
 * The steps of one session: each model call and `traceTool` execution it
 * makes is answered, where it can be, from the run it resumes (`resume()`)
 * or from its recording (modes `replay`, `auto`; tools with `replayTools`),
 * and otherwise made for real; every step that completes is written to the
 * journal (any mode: so any failed run can be resumed) and, by the rule of
 * `#slot` (`record` all, `auto` and `prune` only what the recording lacked),
 * to the recording when the session closes.
 *
 * Adapters reach it through the call lifecycle (`ModelCall.send`) and an
 * instrumented client's `fetch`: `answerCall` says how a call is answered:
 * with a recorded response or an error, delivered the way the SDK delivers
 * them. Injected faults answer before it (adapter-support/faulted-send.ts),
 * so a fault is never kept as a step.
 */
import type { ExchangeRecord, RecordedResponse, StepListener, StepRecord, ToolRecord } from '../storage/index.js'
import type { ToolOutcome } from '../session/recorder.js'
import type { RedactOption } from '../redact/index.js'
import { toJsonValue } from '../trace/serialize.js'
import type { JsonValue, Trace, TraceStatus } from '../trace/types.js'
import type { ReplayMode } from './mode.js'
import { replayMiss } from './miss.js'
import { normalizeRequest } from './normalize.js'
import { NormalTextWriter } from './normal-text.js'
import { RecordingStore } from './recording-store.js'
import { StepBook, type BookEntry } from './step-book.js'
import { bodyKey, liveKey, parsedBody, toolEndpoint, type StepKey } from './step-key.js'
import { replayedTool } from './tool-replay.js'
import { reportPruned, reportUnused, type PrunedRecording, type UnusedRecordingError } from './unused.js'

/** How a model call is answered. */
export type CallAnswer =
  /**
   * From a recording or the resumed run: the SDK is given this instead of
   * calling the model. `bodyText`: its JSON body as the text to answer with,
   * made when the recording was opened.
   */
  | { kind: 'recorded'; response: RecordedResponse; bodyText?: string }
  /** Not at all: the call fails with `error`, as the SDK fails (a replay with no match). */
  | { kind: 'failed'; error: Error }
  /**
   * By the model: `done` gets what came back once it is whole, as a function
   * building its recorded form (called when it is written, off the call's
   * path), or undefined when there is nothing worth keeping (a failure).
   * In `auto`, `unreachable` gives the error for a call the recording missed
   * whose model could not be reached (`failure` says how): a miss, as
   * `replay` fails it, that says so.
   */
  | { kind: 'live'; done: (response: (() => RecordedResponse) | undefined) => void; unreachable?: (failure: string) => Error }

/** How a `traceTool` execution is answered. */
export type ToolAnswer = { kind: 'recorded'; run: () => unknown } | { kind: 'live'; done: (outcome: ToolOutcome, isAsync: boolean) => void }

export interface SessionStepsOptions {
  /** The session's name, as messages name it. */
  name: string
  mode: ReplayMode
  strict: boolean
  replayTools: boolean
  /** The recording file of the session's run file. */
  recordingPath: string
  redact: RedactOption | undefined
  sessionId: string | null
  userId: string | null
  /** The run being resumed: its id and the steps it completed. */
  resumed: { traceId: string; steps: readonly StepRecord[] } | undefined
}

/** A step of this run, in call order: filled once it completes. */
interface Slot {
  step: (() => StepRecord) | undefined
  /** Made by this run and not in the recording: what `auto` adds to it. */
  isNew: boolean
}

/** Where a step's answer came from. */
type StepSource = 'live' | 'recording' | 'resumed'

/** A thunk that computes its value once. */
function once<T>(compute: () => T): () => T {
  let done = false
  let value: T
  return () => {
    if (!done) {
      value = compute()
      done = true
    }
    return value
  }
}

/** A resumed run's completed steps: answers that arrived (a 4xx is the model refusing, tried again) and tools that returned. */
function isCompleted(step: StepRecord): boolean {
  if (step.kind === 'tool') return step.error === undefined
  const status = (step.response as { status?: unknown }).status
  return typeof status !== 'number' || status < 400
}

export class SessionSteps {
  readonly options: SessionStepsOptions
  #journal: StepListener | undefined
  readonly #resumed: StepBook | undefined
  readonly #store: RecordingStore
  /** The recorded steps of this session's scope, in `replay`, `auto` and `prune`. */
  readonly #book: StepBook | undefined
  /** This run's steps in call order, for the recording (see `#slot`). */
  readonly #slots: Slot[] = []
  #calls = 0
  /** Writes the keys of HTTP calls (made on the first one): remembers what redaction found nothing in. */
  #keyWriter: NormalTextWriter | undefined
  #replayedSteps = 0
  #failure: UnusedRecordingError | undefined
  #pruned: PrunedRecording | undefined

  constructor(options: SessionStepsOptions) {
    this.options = options
    const { mode, resumed } = options
    this.#resumed = resumed === undefined ? undefined : new StepBook(resumed.steps.filter(isCompleted))
    this.#store = new RecordingStore(options.recordingPath, options.name, options.sessionId, options.userId, options.redact)
    const scope = mode === 'replay' || isLearning(mode) ? this.#store.load() : undefined
    this.#book = scope === undefined ? undefined : new StepBook(scope.steps)
  }

  /** Where completed steps go (the session's journal), once it exists. */
  attachJournal(journal: StepListener | undefined): void {
    this.#journal = journal
  }

  /** True when calls may be answered without the model: a recording or a resumed run is there to answer from. */
  get answers(): boolean {
    return this.#resumed !== undefined || this.#book !== undefined || this.options.mode === 'replay'
  }

  /**
   * How the session's next model call to `endpoint` is answered; `request`
   * gives it in normal form (not redacted). `body`: the request as the JSON
   * text it is sent as, with the top fields `body.omit` names left out of
   * its normal form (an HTTP call's): the call is then found in one walk
   * over the parsed text (see `#byBody`), and `request` is called only when
   * the normal form is needed.
   */
  answerCall(endpoint: string, request: () => JsonValue, body?: { text: string; omit: ReadonlySet<string> }): CallAnswer {
    const step = ++this.#calls
    let key: StepKey | undefined
    if (this.answers) {
      const found = body === undefined ? this.#byKey(liveKey(endpoint, request(), this.options.redact)) : this.#byBody(endpoint, body, request)
      if ('step' in found) {
        const { response } = found.step as ExchangeRecord
        return found.bodyText === undefined ? { kind: 'recorded', response } : { kind: 'recorded', response, bodyText: found.bodyText }
      }
      key = found
      if (this.options.mode === 'replay') return { kind: 'failed', error: this.#miss(step, key) }
    }
    const slot = this.#slot('exchange', 'live')
    const written = key?.request
    const live: CallAnswer = {
      kind: 'live',
      done: (response) => {
        if (response === undefined) return
        this.#complete(
          slot,
          once((): StepRecord => ({ kind: 'exchange', endpoint, request: written ?? request(), response: response() })),
        )
      },
    }
    if (this.options.mode === 'auto') live.unreachable = (failure) => this.#miss(step, key ?? liveKey(endpoint, request(), this.options.redact), failure)
    return live
  }

  /** The recorded call of `key` (now used), or the key when there is none. */
  #byKey(key: StepKey): BookEntry | StepKey {
    return this.#take(key.key, true) ?? key
  }

  /**
   * The recorded call answering an HTTP call with a JSON body (now used), or
   * its key when there is none. Calls mostly come in recorded order: the
   * recording's next call to the endpoint is compared with the body first,
   * in one walk and with no key written; a call made in another order (side
   * by side with others) is then looked up by its key.
   */
  #byBody(endpoint: string, body: { text: string; omit: ReadonlySet<string> }, request: () => JsonValue): BookEntry | StepKey {
    const { redact } = this.options
    const writer = (this.#keyWriter ??= new NormalTextWriter(redact))
    const parsed = parsedBody(body.text)
    // A resumed run answers first (#take): only the recording's order is known here.
    const next = this.#resumed === undefined && parsed !== undefined ? this.#book?.nextCall(endpoint) : undefined
    if (next !== undefined && writer.isRecorded(parsed!, body.omit, (next.step as ExchangeRecord).request)) return this.#take(next.key, true)!
    return this.#byKey(bodyKey(endpoint, parsed, body.omit, request, writer, redact))
  }

  /** How the session's next run of tool `name` with `input` (its first argument) is answered. */
  answerTool(name: string, input: unknown): ToolAnswer {
    // Before the tool runs: a tool may change the arguments it was given, and the next run's key is taken before it runs.
    const normal = normalizeRequest(input, { renumberIds: false })
    const { mode, replayTools, redact } = this.options
    const key = once(() => liveKey(toolEndpoint(name), normal, redact).key)
    if (this.#resumed !== undefined || (replayTools && this.#book !== undefined)) {
      const answered = this.#take(key(), replayTools)
      if (answered !== undefined) return { kind: 'recorded', run: replayedTool(answered.step as ToolRecord) }
    }
    // Run for real. `prune` keeps the recorded run of a tool the recording does not answer (no replayTools): the agent still makes it.
    const kept = mode === 'prune' && !replayTools ? this.#book?.take(key()) : undefined
    const slot = kept === undefined ? this.#slot('tool', 'live') : this.#slot('tool', 'recording')
    return {
      kind: 'live',
      done: (outcome, isAsync) => {
        // The result now, not later: the agent may change the value it got back.
        const record: ToolRecord = { kind: 'tool', name, input: normal, async: isAsync }
        if ('error' in outcome) record.error = errorOf(outcome.error)
        else if (outcome.result !== undefined) record.result = toJsonValue(outcome.result)
        this.#complete(slot, () => record, kept === undefined ? undefined : () => kept.step)
      },
    }
  }

  /** The next step of `key` from the resumed run, else (when `fromRecording`) from the recording; journaled as this run's. */
  #take(key: string, fromRecording: boolean): BookEntry | undefined {
    const resumed = this.#resumed?.take(key)
    if (resumed !== undefined) this.#replayedSteps++
    // In `prune`, a step the resumed run answers still uses its recorded twin, which keeps its place in the recording.
    const twin = resumed !== undefined && this.options.mode === 'prune' ? this.#book?.take(key) : undefined
    const entry = resumed ?? (fromRecording ? this.#book?.take(key) : undefined)
    if (entry === undefined) return undefined
    const { step } = entry
    if (twin !== undefined)
      this.#complete(
        this.#slot(step.kind, 'recording'),
        () => step,
        () => twin.step,
      )
    else this.#complete(this.#slot(step.kind, resumed === undefined ? 'recording' : 'resumed'), () => step)
    return entry
  }

  /**
   * The place of a step in what the session writes to the recording, taken
   * when the step starts (so the recording keeps the call order), or none:
   *
   * - `record`: every step; the recording becomes this run's steps.
   * - `auto`: only what the recording lacked and this run made live: model
   *   calls, and tool runs when tools are recorded on purpose (`replayTools`).
   *   A step answered from the recording is in it already, and a resumed one
   *   was made by another run: a run that changes nothing writes nothing.
   * - `prune`: as `auto`, and the steps this run used from the recording (or
   *   a resumed run) keep their place, not new: a completed run rewrites its
   *   scope to exactly them and the new ones (see `close`).
   */
  #slot(kind: StepRecord['kind'], source: StepSource): Slot | undefined {
    const { mode, replayTools } = this.options
    let isNew: boolean
    if (mode === 'record') isNew = true
    else if (!isLearning(mode)) return undefined
    else if (source === 'live') {
      if (kind === 'tool' && !replayTools) return undefined
      isNew = true
    } else {
      if (mode !== 'prune' || (source === 'resumed' && kind === 'tool' && !replayTools)) return undefined
      isNew = false
    }
    const slot: Slot = { step: undefined, isNew }
    this.#slots.push(slot)
    return slot
  }

  /** A step completed: into its slot (`kept` in its place when the recording's step is kept instead), and into the journal. */
  #complete(slot: Slot | undefined, step: () => StepRecord, kept: () => StepRecord = step): void {
    if (slot !== undefined) slot.step = kept
    this.#journal?.onStep(step)
  }

  #miss(step: number, key: StepKey, unreachable?: string) {
    const { name, recordingPath, sessionId, userId } = this.options
    const context = { sessionName: name, step, key, recordingPath, scopes: this.#store.scopes, sessionId, userId, book: this.#book }
    return replayMiss(unreachable === undefined ? context : { ...context, unreachable })
  }

  /** What closing found wrong (`strict: true` and unused recorded calls), for session() to reject with. */
  get failure(): UnusedRecordingError | undefined {
    return this.#failure
  }

  /** What closing pruned (`prune`), if anything. */
  get pruned(): PrunedRecording | undefined {
    return this.#pruned
  }

  /**
   * The session closed with `status`: the trace gets what resuming did, the
   * recording is written or marked used, and unused recorded calls are
   * reported. What is written:
   *
   * - `record`: this run's steps, in place of the scope's;
   * - `prune`, when the run completed and left recorded steps unused: the
   *   scope becomes the steps this run used or made, in call order (a failed
   *   run may have stopped before the steps it did not use: nothing is dropped);
   * - `auto` (and `prune` otherwise): the new steps after the scope's, when there are any;
   * - otherwise nothing: a replay never rewrites the file, it only marks it used.
   */
  close(trace: Trace, status: Exclude<TraceStatus, 'active'>): void {
    const { mode, resumed } = this.options
    if (resumed !== undefined) trace.replayed_steps = this.#replayedSteps
    const filled = this.#slots.filter((slot) => slot.step !== undefined)
    const book = this.#book
    const prunable = mode === 'prune' && status === 'completed' && book !== undefined ? book.unused() : []
    if (mode === 'record') this.#store.save(stepsOf(filled), 'replace')
    else if (prunable.length > 0) {
      this.#store.save(stepsOf(filled), 'replace')
      this.#pruned = reportPruned(prunable.length, this.options)
    } else if (filled.some((slot) => slot.isNew)) this.#store.save(stepsOf(filled.filter((slot) => slot.isNew)), 'append')
    else if (book !== undefined) this.#store.markUsed()
    if (book !== undefined && status === 'completed' && mode !== 'prune') {
      this.#failure = reportUnused(book, this.options)
    }
  }
}

/** The modes that add what the recording lacks. */
function isLearning(mode: ReplayMode): boolean {
  return mode === 'auto' || mode === 'prune'
}

function stepsOf(slots: readonly Slot[]): StepRecord[] {
  return slots.map((slot) => slot.step!())
}

function errorOf(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message }
  return { name: 'Error', message: typeof error === 'string' ? error : String(toJsonValue(error)) }
}
