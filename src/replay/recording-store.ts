/**
 * One session's recording file, through the storage layer: the scope of its
 * (session id, user id) read when the session opens, and written back when
 * it closes, leaving the other scopes as they are. What is written is
 * redacted by the session's `redact` rules, as its trace is (a request is
 * matched in that same redacted form). The file is read again
 * just before it is written (in the same tick: sessions of one process
 * sharing a file never lose each other's scopes), written atomically, and
 * only when its text changes. The provider's volatile fields (ids, times,
 * fingerprints) are made steady as the scope is written (volatile-fields.ts).
 */
import { markRecordingUsed, readRecordingText, writeRecordingText, type StepRecord } from '../storage/index.js'
import { redactForDisk, type RedactOption } from '../redact/index.js'
import { warn } from '../warnings/warnings.js'
import { steadySteps } from './volatile-fields.js'
import { RecordingFormatError } from '../errors/index.js'
import { parseRecording, renderRecording, scopeOf, withScope, type Recording, type RecordingScope } from './recording-format.js'

export class RecordingStore {
  readonly path: string
  readonly #name: string
  /** The name as the file holds it: redacted by the session's rules, as every written field is. */
  readonly #writtenName: string
  readonly #sessionId: string | null
  readonly #userId: string | null
  readonly #redact: RedactOption | undefined
  /** The file as loaded: undefined when there is none (or it was not loaded). */
  #recording: Recording | undefined
  #scope: RecordingScope | undefined

  constructor(path: string, name: string, sessionId: string | null, userId: string | null, redact: RedactOption | undefined) {
    this.path = path
    this.#name = name
    this.#writtenName = redactForDisk(name, redact)
    this.#sessionId = sessionId
    this.#userId = userId
    this.#redact = redact
  }

  /**
   * Reads the file; the steps of this session's scope, or undefined. Throws
   * `RecordingFormatError` for a file that is not a recording, or the
   * recording of another session.
   */
  load(): RecordingScope | undefined {
    const text = readRecordingText(this.path)
    this.#recording = text === null ? undefined : parseRecording(text, this.path)
    // A recording of another session (copied, or a name that maps to the same file) never answers this one.
    const recorded = this.#recording?.name
    if (recorded !== undefined && recorded !== this.#writtenName && recorded !== this.#name) {
      throw new RecordingFormatError(
        this.path,
        `"name" is ${JSON.stringify(redactForDisk(recorded))}, the recording of another session than "${this.#writtenName}"`,
      )
    }
    this.#scope = scopeOf(this.#recording, this.#sessionId, this.#userId)
    return this.#scope
  }

  /** The scopes of the file as loaded; undefined when there was no file. */
  get scopes(): readonly RecordingScope[] | undefined {
    return this.#recording?.scopes
  }

  /** Writes this session's scope: `steps` in place of what it had, or after it. Never throws: a failure is a warning. */
  save(steps: readonly StepRecord[], how: 'replace' | 'append'): void {
    try {
      const text = readRecordingText(this.path)
      let current: Recording | undefined
      try {
        current = text === null ? undefined : parseRecording(text, this.path)
      } catch {
        // Recording replaces what was there; a damaged file has nothing worth keeping.
        current = undefined
      }
      const before = how === 'append' ? (scopeOf(current, this.#sessionId, this.#userId)?.steps ?? []) : []
      if (how === 'replace' && steps.length === 0 && scopeOf(current, this.#sessionId, this.#userId) === undefined) return
      const written = steps.map((step) => redactForDisk(step, this.#redact))
      const scope: RecordingScope = {
        session_id: this.#sessionId,
        user_id: this.#userId,
        steps: steadySteps([...before, ...written], [this.#writtenName, this.#sessionId, this.#userId]),
      }
      if (!writeRecordingText(this.path, renderRecording(withScope(current, this.#writtenName, scope)))) markRecordingUsed(this.path)
    } catch (error) {
      warn(
        'REAGENT_WRITE',
        `session "${this.#name}": the recording ${this.path} could not be written (${error instanceof Error ? error.message : String(error)}).`,
      )
    }
  }

  /** A session replayed from the file: its last use is now. */
  markUsed(): void {
    markRecordingUsed(this.path)
  }
}
