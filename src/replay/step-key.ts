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
import type { NormalTextWriter } from './normal-text.js'

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

/** `text` parsed as JSON; undefined when it is not JSON. */
export function parsedBody(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue
  } catch {
    return undefined
  }
}

/**
 * The key of a call made now whose request is the JSON `body` (an HTTP
 * body, parsed; undefined when it was not JSON), with the top fields `omit`
 * names left out of its normal form: one walk over it (normal-text.ts;
 * `writer` is the session's).
 * `request` gives the request in normal form, as `liveKey` takes it: for
 * `StepKey.request` when it is read (a miss, a call made live), and for the
 * long way (a request holding a secret, a body that is not JSON), which
 * gives the same key.
 */
export function bodyKey(
  endpoint: string,
  body: JsonValue | undefined,
  omit: ReadonlySet<string>,
  request: () => JsonValue,
  writer: NormalTextWriter,
  redact: RedactOption | undefined,
): StepKey {
  const text = body === undefined ? undefined : writer.textOf(body, omit)
  if (text === undefined) return liveKey(endpoint, request(), redact)
  // Redaction leaves this request as it is: its written form is its normal form.
  let written: JsonValue | undefined
  return {
    key: `${endpoint}\n${text}`,
    endpoint,
    get request() {
      return (written ??= request())
    },
  }
}

/** The key of a recorded step (its request was redacted when it was written). */
export function recordedKey(step: StepRecord): string {
  return step.kind === 'exchange' ? keyOf(step.endpoint, step.request) : keyOf(toolEndpoint(step.name), step.input)
}
