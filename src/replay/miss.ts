/**
 * The error a call in `replay` mode gets when the recording cannot answer it:
 * which call of which session, why nothing matched, and, when the recording
 * has calls to the same endpoint, the nearest recorded request with the
 * difference between the two (`-` recorded, `+` this call). In `auto`, the
 * same error for a call that missed and could not be recorded because the
 * model was unreachable.
 */
import { diffPackage } from '../base/diff-package.js'
import type { JsonValue } from '../trace/types.js'
import { ReplayMissError } from '../errors/index.js'
import type { RecordingScope } from './recording-format.js'
import type { BookEntry, StepBook } from './step-book.js'
import type { StepKey } from './step-key.js'
import { sortKeys } from '../trace/serialize.js'

/** Lines of difference shown, at most: enough to see what changed, short enough to read. */
const MAX_DIFF_LINES = 60

const FIX = "Record again with REAGENT_REPLAY=record (or the session option replay: 'record'), or use replay: 'auto' to record only the calls that changed."

/** `auto` could not record the call: what to do instead. */
const REACH =
  "Recording a call needs the model reachable: run again where it is, or use replay: 'replay' (REAGENT_REPLAY=replay) to fail at once on calls the recording lacks."

export interface MissContext {
  sessionName: string
  /** Which model call of the session this is (1 for the first). */
  step: number
  key: StepKey
  recordingPath: string
  /** The scopes the file has; undefined when there is no file. */
  scopes: readonly RecordingScope[] | undefined
  sessionId: string | null
  userId: string | null
  /** The steps of this session's scope; undefined when the file has none for it. */
  book: StepBook | undefined
  /** `auto`: why the model could not be reached to record the call (`connect ECONNREFUSED 127.0.0.1:9`). */
  unreachable?: string
}

function pretty(value: JsonValue): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`
}

function scopeName(sessionId: string | null, userId: string | null): string {
  return `session_id ${sessionId === null ? 'null' : JSON.stringify(sessionId)}, user_id ${userId === null ? 'null' : JSON.stringify(userId)}`
}

function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')
  return `${n}${suffix}`
}

/** How many lines differ between two texts. */
function distance(a: string, b: string): number {
  let lines = 0
  for (const part of diffPackage().diffLines(a, b)) if (part.added || part.removed) lines += part.count ?? 0
  return lines
}

/** The recorded call to the same endpoint closest to this request: fewest lines apart, unused ones first. */
function nearest(book: StepBook, key: StepKey, text: string): { entry: BookEntry; text: string } | undefined {
  let best: { entry: BookEntry; text: string; lines: number } | undefined
  for (const entry of book.entries) {
    if (entry.step.kind !== 'exchange' || entry.step.endpoint !== key.endpoint) continue
    const recorded = pretty(entry.step.request)
    const lines = distance(recorded, text) + (entry.used ? 0.5 : 0)
    if (best === undefined || lines < best.lines) best = { entry, text: recorded, lines }
  }
  return best
}

/** The unified difference of two texts, hunks only, cut at MAX_DIFF_LINES. */
export function formatLineDiff(recorded: string, current: string): string {
  const { hunks } = diffPackage().structuredPatch('recorded', 'this call', recorded, current, undefined, undefined, { context: 2 })
  const lines: string[] = []
  for (const hunk of hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`)
    for (const line of hunk.lines) if (!line.startsWith('\\')) lines.push(line)
  }
  if (lines.length <= MAX_DIFF_LINES) return lines.map((line) => `  ${line}`).join('\n')
  const shown = lines.slice(0, MAX_DIFF_LINES).map((line) => `  ${line}`)
  return `${shown.join('\n')}\n  … ${lines.length - MAX_DIFF_LINES} more lines of difference`
}

function why(context: MissContext): string {
  const { key, book, scopes } = context
  const fix = context.unreachable === undefined ? FIX : REACH
  if (scopes === undefined) {
    if (context.unreachable !== undefined) return `there is no recording. ${REACH}`
    return `there is no recording. Record the run first with REAGENT_REPLAY=record (or the session option replay: 'record').`
  }
  if (book === undefined) {
    const others = scopes.map((scope) => scopeName(scope.session_id, scope.user_id))
    return (
      `the recording has no calls for ${scopeName(context.sessionId, context.userId)}` +
      `${others.length === 0 ? '' : ` (it has calls for ${others.join('; ')})`}: a recording answers only the session and user it was recorded for. ${fix}`
    )
  }
  const recorded = book.countOf(key.key)
  if (recorded > 0) {
    return `all ${recorded} recorded answer${recorded === 1 ? ' to this request was' : 's to this request were'} used; the agent made it a ${ordinal(recorded + 1)} time. ${fix}`
  }
  const text = pretty(key.request)
  const near = nearest(book, key, text)
  if (near === undefined) return `the recording has no call to ${key.endpoint}. ${fix}`
  return (
    `the nearest recorded request (call ${near.entry.ordinal} of the recording${near.entry.used ? ', already used' : ''}) differs (- recorded, + this call):\n` +
    `${formatLineDiff(near.text, text)}\n${fix}`
  )
}

/** The error for a call the recording cannot answer. */
export function replayMiss(context: MissContext): ReplayMissError {
  const { sessionName, step, key, recordingPath } = context
  const scope = context.sessionId === null && context.userId === null ? '' : ` (${scopeName(context.sessionId, context.userId)})`
  const live = context.unreachable === undefined ? '' : `, and the model could not be reached to record it (${context.unreachable})`
  const message = `session "${sessionName}"${scope}: call ${step} (${key.endpoint}) has no recorded answer in ${recordingPath}${live}: ${why(context)}`
  return new ReplayMissError(message, { sessionName, endpoint: key.endpoint, step, recordingPath })
}
