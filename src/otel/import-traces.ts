/**
 * OTLP/JSON spans into reagent-flow traces: one trace per agent (or workflow)
 * span, a run inside another's spans its child (`parent_trace_id`), each
 * built through a session, as a recording is (run-plan.ts groups the spans,
 * log-turns.ts logs them), then given the span's times, status and ids.
 * Traces that reagent-flow exported come back as they were: their own
 * attributes (`reagent_flow.*`) restore what the conventions have no place for.
 */
import { OtlpFormatError } from '../errors/index.js'
import { sanitizeName } from '../storage/index.js'
import { session } from '../run/session.js'
import type { JsonObject, Trace } from '../trace/types.js'
import { REAGENT } from './attributes.js'
import { chooseDialect, type Dialect, type DialectOption } from './dialects/index.js'
import { logRun } from './log-turns.js'
import { ownObject } from './own-attributes.js'
import type { RunPlan } from './run-plan.js'
import { planRuns } from './run-plan.js'
import { spansFromOtlp, type SpanRecord } from './span-record.js'

export interface OtlpImportOptions {
  /** Which conventions the spans follow. Default: "auto" (detected from their attributes). */
  dialect?: DialectOption
  /** The file the spans came from, as errors name it. Default: "spans". */
  source?: string
}

export interface ImportedSpans {
  /** Every run, parents before their children. */
  traces: Trace[]
  dialect: Dialect['name']
}

/** A session name for `name` (which a trace keeps as it is): one with nothing usable in a file name is "agent". */
function sessionName(name: string): string {
  try {
    sanitizeName(name)
    return name
  } catch {
    return 'agent'
  }
}

async function traceOf(run: RunPlan, dialect: Dialect, parentTraceId: string | null): Promise<Trace> {
  const { span } = run
  const s = await session(sessionName(run.name), { save: false, parentTraceId: null }, (s) => logRun(s, run))
  const error = span.status.isError
    ? { name: String(span.attributes.get('error.type') ?? 'Error'), message: span.status.message ?? 'the span ended with status ERROR' }
    : null
  const metadata: JsonObject = { otel: { trace_id: span.traceId, span_id: span.spanId, dialect: dialect.name } }
  const trace: Trace = {
    ...s.trace,
    trace_id: `otel-${span.traceId}-${span.spanId}`,
    name: run.name,
    metadata,
    started_at: span.start,
    ended_at: span.end,
    parent_trace_id: parentTraceId,
    handoff_context: null,
    status: error === null ? 'completed' : 'failed',
    error,
    session_id: dialect.sessionId(span),
    user_id: dialect.userId(span),
  }
  // A run reagent-flow exported: its own fields, as they were (parent ids included), and only those (a file of reagent-flow 0.5 has no status).
  const own = ownObject(span.attributes.get(REAGENT.trace))
  if (own === undefined) return trace
  const { trace_id, name, metadata: meta, started_at, ended_at, format_version, parent_trace_id, handoff_context, turns } = trace
  return { trace_id, name, metadata: meta, started_at, ended_at, format_version, parent_trace_id, handoff_context, ...own, turns }
}

/** Builds the traces `spans` record. */
export async function tracesFromSpans(spans: readonly SpanRecord[], options: OtlpImportOptions = {}): Promise<ImportedSpans> {
  const dialect = chooseDialect(spans, options.dialect ?? 'auto', options.source ?? 'spans')
  const traces: Trace[] = []
  const visit = async (run: RunPlan, parentTraceId: string | null): Promise<void> => {
    const trace = await traceOf(run, dialect, parentTraceId)
    traces.push(trace)
    for (const child of run.children) await visit(child, trace.trace_id)
  }
  const runs = planRuns(spans, dialect)
  if (runs.length === 0) {
    throw new OtlpFormatError(
      options.source ?? 'spans',
      '',
      `none of its ${spans.length} span(s) is an agent run, a model call or a tool execution in the ${dialect.name} conventions; leave --dialect at auto to detect them`,
    )
  }
  for (const run of runs) await visit(run, null)
  return { traces, dialect: dialect.name }
}

/**
 * The traces an OTLP/JSON document (`{ "resourceSpans": [...] }`, as an
 * OTLP/HTTP exporter sends it) records. Throws `OtlpFormatError` for a
 * document that is not OTLP/JSON or holds no GenAI span.
 *
 * @example
 * const { traces } = await fromOtlp(JSON.parse(readFileSync('spans.json', 'utf8')), { dialect: 'openinference' })
 */
export async function fromOtlp(document: unknown, options: OtlpImportOptions = {}): Promise<ImportedSpans> {
  return tracesFromSpans(spansFromOtlp(document, options.source ?? 'spans'), options)
}
