/**
 * What a dialect of GenAI spans (the OpenTelemetry GenAI conventions,
 * OpenInference, OpenLLMetry) says, in one vocabulary: a span's role in an
 * agent's run, and what an LLM span or a tool span holds. The importer and
 * the live span processor build traces from these, whatever the dialect.
 */
import type { AttributeValue } from '../otlp-json.js'
import type { SpanRecord } from '../span-record.js'

export const DIALECTS = ['genai', 'openinference', 'openllmetry'] as const
export type DialectName = (typeof DIALECTS)[number]

/** An agent run, a workflow (a run of several agents), a model call, a tool execution, or anything else (not recorded). */
export type SpanRole = 'agent' | 'workflow' | 'llm' | 'tool' | 'other'

export interface LlmDraft {
  messages: unknown[] | null
  responseText: string | null
  toolCalls: Array<{ name: string; arguments?: unknown; callId?: string }>
  model: string | null
  provider: string | null
  tokenUsage: Record<string, unknown> | null
  stopReason: string | null
  error: { name: string; message: string } | null
}

export interface ToolDraft {
  name: string
  callId: string | null
  /** Undefined when the span does not hold them (content not captured). */
  arguments: unknown
  result: unknown
  error: string | null
}

export interface Dialect {
  readonly name: DialectName
  /** How many of `spans` are written in this dialect: detection picks the dialect most spans speak. */
  speaks(span: SpanRecord): boolean
  /** `isRoot`: the span has no parent among the spans read (OpenInference's root CHAIN is a workflow). */
  role(span: SpanRecord, isRoot: boolean): SpanRole
  /** The agent's (or workflow's) name. */
  runName(span: SpanRecord): string
  sessionId(span: SpanRecord): string | null
  userId(span: SpanRecord): string | null
  llm(span: SpanRecord): LlmDraft
  tool(span: SpanRecord): ToolDraft
}

export function text(span: SpanRecord, key: string): string | null {
  const value = span.attributes.get(key)
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null
}

export function count(span: SpanRecord, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = span.attributes.get(key)
    const number = typeof value === 'string' ? Number(value) : value
    if (typeof number === 'number' && Number.isFinite(number)) return number
  }
  return undefined
}

/** A JSON text parsed, or a structured value as it is; text that is not JSON stays text. */
export function jsonOrText(value: AttributeValue | undefined): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}

/** Token counts in the trace's names; null when the span has none. */
export function usage(input: number | undefined, output: number | undefined, total?: number): Record<string, unknown> | null {
  if (input === undefined && output === undefined) return null
  return {
    ...(input === undefined ? {} : { input_tokens: input }),
    ...(output === undefined ? {} : { output_tokens: output }),
    ...(total === undefined ? {} : { total_tokens: total }),
  }
}

/** A failed span's error: its `error.type` (else "Error") and status message (else the type). */
export function spanError(span: SpanRecord): { name: string; message: string } | null {
  if (!span.status.isError) return null
  const type = text(span, 'error.type')
  return { name: type ?? 'Error', message: span.status.message ?? type ?? 'the span ended with status ERROR' }
}

/**
 * Flattened indexed attributes (`prefix.0.message.role`, `prefix.1.message.content`)
 * as one object per index, the rest of each key kept: `[{ 'message.role': ..., 'message.content': ... }]`.
 */
export function indexed(span: SpanRecord, prefix: string): Array<Map<string, AttributeValue>> {
  const out: Array<Map<string, AttributeValue>> = []
  const start = `${prefix}.`
  for (const [key, value] of span.attributes) {
    if (!key.startsWith(start)) continue
    const rest = key.slice(start.length)
    const dot = rest.indexOf('.')
    const index = Number(dot === -1 ? rest : rest.slice(0, dot))
    if (!Number.isInteger(index) || index < 0 || index > 10_000 || dot === -1) continue
    ;(out[index] ??= new Map()).set(rest.slice(dot + 1), value)
  }
  return out.filter((entry) => entry !== undefined)
}
