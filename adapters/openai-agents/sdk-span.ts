/** The parts of an Agents SDK span (`Span` of @openai/agents) the adapter reads, and what it reads from them. */

/** The parts of an SDK span read here (`Span` of @openai/agents). */
export interface SdkSpan {
  readonly spanId: string
  readonly traceId: string
  readonly parentId: string | null
  readonly spanData: { readonly type: string; readonly [key: string]: unknown }
  readonly error: { message: string; data?: Record<string, unknown> } | null
  readonly startedAt: string | null
  readonly endedAt: string | null
}

/** A span's error as one line: its message, and its data when there is some. */
export function errorText(error: NonNullable<SdkSpan['error']>): string {
  const data = error.data === undefined ? '' : ` (${JSON.stringify(error.data)})`
  return `${error.message}${data}`
}

/** Milliseconds between the span's ISO start and end. */
export function durationOf(span: SdkSpan): number | undefined {
  if (span.startedAt === null || span.endedAt === null) return undefined
  const ms = Date.parse(span.endedAt) - Date.parse(span.startedAt)
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined
}
