/**
 * A recording file: the model calls (and tool results) the runs of one run
 * file recorded, one scope per (`session_id`, `user_id`), so another user
 * reusing a session id never gets this user's answers.
 *
 *   {
 *     "name": "refund-agent",
 *     "recording": 1,
 *     "scopes": [
 *       {
 *         "session_id": null,
 *         "steps": [
 *           { "endpoint": "openai POST /chat/completions", "kind": "exchange", "request": {...}, "response": { "body": {...}, "status": 200 } },
 *           { "async": true, "input": {...}, "kind": "tool", "name": "lookup_order", "result": {...} }
 *         ],
 *         "user_id": null
 *       }
 *     ]
 *   }
 *
 * Written deterministically, for review in a pull request: the keys of the
 * file's own objects (the envelope: file, scope, step, response, event)
 * sorted, and the request and input in normal form (keys sorted), 2-space
 * indent, scopes in order, no times; a stream's events (and a model's
 * chunks) one per line. What a replay hands back (a response's body, value,
 * chunks and events' data, a tool's result) keeps the key order it was
 * recorded with: a replayed value is the value the model or tool gave,
 * `JSON.stringify` of it included. (Recordings written before sorted those
 * too; they load and replay as they are.) Steps have the shapes of the
 * journal's `exchange` and `tool` records.
 */
import { sortKeys } from '../trace/serialize.js'
import type { JsonValue } from '../trace/types.js'
import type { StepRecord } from '../storage/index.js'
import { RecordingFormatError } from '../errors/index.js'

export const RECORDING_VERSION = 1

export interface RecordingScope {
  session_id: string | null
  user_id: string | null
  steps: StepRecord[]
}

export interface Recording {
  recording: number
  /** The name of the session whose runs it records. */
  name: string
  scopes: RecordingScope[]
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function isIdentity(value: unknown): value is string | null {
  return value === null || typeof value === 'string'
}

/** `value` as the error quotes it: JSON, cut to a readable length. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

/**
 * A recorded answer, checked against the shapes of `RecordedResponse`: a
 * tampered status or body would otherwise surface far from the file, as a
 * connection error or a TypeError inside the agent's code.
 */
function checkResponse(response: Record<string, unknown>, where: string): void {
  if ('value' in response) return
  if ('chunks' in response) {
    if (!Array.isArray(response.chunks)) throw new Error(`${where}.chunks is not a list`)
    return
  }
  const status = response.status
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
    throw new Error(`${where}.status is ${shown(status)}, not an HTTP status from 200 to 599`)
  }
  if ('body' in response) {
    if (response.body === null || typeof response.body !== 'object') throw new Error(`${where}.body is ${shown(response.body)}, not a JSON object or list`)
  } else if ('events' in response) {
    const events = response.events
    if (!Array.isArray(events)) throw new Error(`${where}.events is not a list`)
    const bad = events.findIndex((event) => !isObject(event) || !('data' in event || typeof event.text === 'string'))
    if (bad !== -1) throw new Error(`${where}.events[${bad}] is not { data } or { text }`)
  } else if (typeof response.text === 'string' || typeof response.base64 === 'string') {
    if (typeof response.content_type !== 'string') throw new Error(`${where}.content_type is not a string`)
  } else {
    throw new Error(`${where} has no body, events, text or base64`)
  }
}

function checkStep(step: unknown, where: string): StepRecord {
  if (!isObject(step)) throw new Error(`${where} is not an object`)
  if (step.kind === 'exchange') {
    if (typeof step.endpoint !== 'string') throw new Error(`${where}.endpoint is not a string`)
    if (!isObject(step.response)) throw new Error(`${where}.response is not an object`)
    if (!('request' in step)) throw new Error(`${where} has no request`)
    checkResponse(step.response, `${where}.response`)
    return step as unknown as StepRecord
  }
  if (step.kind === 'tool') {
    if (typeof step.name !== 'string') throw new Error(`${where}.name is not a string`)
    if (typeof step.async !== 'boolean') throw new Error(`${where}.async is not true or false`)
    return step as unknown as StepRecord
  }
  throw new Error(`${where}.kind is ${JSON.stringify(step.kind)}, not "exchange" or "tool"`)
}

/** Reads a recording's text; `path` names it in the error. Throws `RecordingFormatError`. */
export function parseRecording(text: string, path: string): Recording {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new RecordingFormatError(path, `it is not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  try {
    if (!isObject(data) || data.recording !== RECORDING_VERSION) throw new Error(`"recording" is not ${RECORDING_VERSION}`)
    if (typeof data.name !== 'string') throw new Error('"name" is not a string')
    if (!Array.isArray(data.scopes)) throw new Error('"scopes" is not a list')
    const scopes = data.scopes.map((scope: unknown, i: number): RecordingScope => {
      const where = `scopes[${i}]`
      if (!isObject(scope) || !isIdentity(scope.session_id) || !isIdentity(scope.user_id) || !Array.isArray(scope.steps)) {
        throw new Error(`${where} is not { session_id, user_id, steps }`)
      }
      return {
        session_id: scope.session_id,
        user_id: scope.user_id,
        steps: scope.steps.map((step: unknown, j: number) => checkStep(step, `${where}.steps[${j}]`)),
      }
    })
    return { recording: RECORDING_VERSION, name: data.name, scopes }
  } catch (error) {
    throw new RecordingFormatError(path, (error as Error).message)
  }
}

/** The scope of one (session id, user id), if the recording has it. */
export function scopeOf(recording: Recording | undefined, sessionId: string | null, userId: string | null): RecordingScope | undefined {
  return recording?.scopes.find((scope) => scope.session_id === sessionId && scope.user_id === userId)
}

/** `recording` with the scope of (session id, user id) replaced by `steps` (added when new); scopes kept in a stable order. */
export function withScope(recording: Recording | undefined, name: string, scope: RecordingScope): Recording {
  const others = (recording?.scopes ?? []).filter((s) => s.session_id !== scope.session_id || s.user_id !== scope.user_id)
  const scopes = [...others, scope].sort((a, b) => compareIds(a.session_id, b.session_id) || compareIds(a.user_id, b.user_id))
  return { recording: RECORDING_VERSION, name, scopes }
}

function compareIds(a: string | null, b: string | null): number {
  if (a === b) return 0
  if (a === null) return -1
  if (b === null) return 1
  return a < b ? -1 : 1
}

/** Arrays whose items are written one per line: a stream's events, a model's chunks. */
const ONE_PER_LINE: ReadonlySet<string> = new Set(['events', 'chunks'])

/** Recorded values, kept in the key order they came with (see the top of this file). */
const AS_RECORDED: ReadonlySet<string> = new Set(['body', 'value', 'chunks', 'data', 'result'])

/** Values whose keys are sorted all the way down: the normal form (already sorted when a session writes it). */
const NORMAL_FORM: ReadonlySet<string> = new Set(['request', 'input'])

/**
 * A copy of the file's tree with the envelope's keys sorted, the normal form
 * sorted throughout and recorded values left as they are. `events` items
 * are envelopes (`event`, `data` or `text`) around their recorded data.
 */
function sortEnvelope(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(sortEnvelope)
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key]
    out[key] = AS_RECORDED.has(key) ? item : NORMAL_FORM.has(key) ? sortKeys(item as JsonValue) : sortEnvelope(item)
  }
  return out
}

function write(value: unknown, indent: string, compactItems: boolean): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    const items = value.map((item) => (compactItems ? JSON.stringify(item) : write(item, inner, false)))
    return `[\n${inner}${items.join(`,\n${inner}`)}\n${indent}]`
  }
  const keys = Object.keys(value)
  if (keys.length === 0) return '{}'
  const entries = keys.map((key) => `${JSON.stringify(key)}: ${write((value as Record<string, unknown>)[key], inner, ONE_PER_LINE.has(key))}`)
  return `{\n${inner}${entries.join(`,\n${inner}`)}\n${indent}}`
}

/** The file's text: deterministic, reviewable (see the top of this file). */
export function renderRecording(recording: Recording): string {
  return `${write(sortEnvelope(recording), '', false)}\n`
}
