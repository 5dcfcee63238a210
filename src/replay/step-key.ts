/**
 * The key a step is matched on. A model call: its endpoint (who and what is
 * called) and its request in normal form; a tool execution: the tool's name
 * and its input. The key is taken from the request as it is written to disk
 * (redacted by the session's `redact` rules), so a call matches the recorded
 * request it equals, secrets or not.
 */
import { redactForDisk, type RedactOption } from '../redact/index.js'
import { sortKeys } from '../trace/serialize.js'
import type { JsonValue } from '../trace/types.js'
import type { StepRecord } from '../storage/index.js'

/** A step as the session asks for it: what to match, and the request as it would be written. */
export interface StepKey {
  readonly key: string
  readonly endpoint: string
  /** The request in normal form, redacted. */
  readonly request: JsonValue
}

/** Compact JSON with sorted keys: equal values, equal text. */
export function canonicalJson(value: JsonValue): string {
  return JSON.stringify(sortKeys(value))
}

/** The endpoint of a tool step, as keys and messages name it. */
export function toolEndpoint(name: string): string {
  return `tool ${name}`
}

function keyOf(endpoint: string, request: JsonValue, isSorted = false): string {
  return `${endpoint}\n${isSorted ? JSON.stringify(request) : canonicalJson(request)}`
}

/** The key of a step made now: `request` in normal form, redacted as the session writes it. */
export function liveKey(endpoint: string, request: JsonValue, redact: RedactOption | undefined): StepKey {
  const written = redactForDisk(request, redact)
  // The normal form has its keys sorted; redaction hands it back untouched when it finds nothing.
  return { key: keyOf(endpoint, written, written === request), endpoint, request: written }
}

/** The key of a recorded step (its request was redacted when it was written). */
export function recordedKey(step: StepRecord): string {
  return step.kind === 'exchange' ? keyOf(step.endpoint, step.request) : keyOf(toolEndpoint(step.name), step.input)
}
