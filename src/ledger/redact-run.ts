/**
 * What a caller sends the ledger, as it may be stored: every free-text field
 * of run.begin, run.complete and run.grade through the one redaction of every
 * writer (`redactForDisk`, the built-in rules), so neither store keeps nor
 * serves a secret a caller put in a goal, a final response, metadata or a
 * grade's reason. The identifiers (org, namespace, run_id, agent, user_id,
 * session_id) are kept as sent: they are the keys callers look runs up by.
 */
import { redactForDisk } from '../redact/index.js'
import type { BeginInput, CompleteInput, GradeVerdict } from './checked-input.js'

const redacted = (text: string): string => redactForDisk(text, undefined)

export function redactBegin(input: BeginInput): BeginInput {
  const out: BeginInput = {
    ...input,
    goal: redacted(input.goal),
    user_request: redacted(input.user_request),
    expected_outcome: redacted(input.expected_outcome),
    environment: redacted(input.environment),
    model: redacted(input.model),
    consumer: redacted(input.consumer),
    role: redacted(input.role),
  }
  if (input.metadata !== undefined) out.metadata = redactForDisk(input.metadata, undefined)
  return out
}

export function redactComplete(input: CompleteInput): CompleteInput {
  const out: CompleteInput = { ...input, final_response: redacted(input.final_response) }
  if (input.metadata !== undefined) out.metadata = redactForDisk(input.metadata, undefined)
  return out
}

export function redactVerdict(verdict: GradeVerdict): GradeVerdict {
  return { ...verdict, source: redacted(verdict.source), reason: redacted(verdict.reason), ref: redacted(verdict.ref) }
}
