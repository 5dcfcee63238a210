/**
 * Traces as OTLP/JSON spans in the OpenTelemetry GenAI conventions: one
 * `invoke_agent {name}` span per run (child runs under their parent's), a
 * `chat {model}` span per LLM call and an `execute_tool {name}` span per tool
 * result, under their run's span. Messages, text, tool arguments and results
 * and the handoff context are content: only with `includeContent`, in the
 * conventions' opt-in attributes. Everything passes through redaction first,
 * as a trace file does. Ids are derived from the traces (span-ids.ts).
 */
import { checkNesting } from '../trace/depth.js'
import { redactForDiskUnchecked, type RedactOption } from '../redact/index.js'
import type { JsonValue, LlmCall, Trace, Turn } from '../trace/types.js'
import { GEN_AI, GENERAL, OPERATION, REAGENT } from './attributes.js'
import { inputMessagesOf, outputMessagesOf } from './content.js'
import { attribute, nanosFromSeconds, SPAN_KIND_INTERNAL, STATUS_ERROR, type OtlpExportRequest, type OtlpKeyValue, type OtlpSpan } from './otlp-json.js'
import { otelSpanId, otelTraceId } from './span-ids.js'

/** A run and the runs it started, as `loadChain` returns them (a ChainNode is one). */
export interface TraceTree {
  readonly trace: Trace
  readonly children: readonly TraceTree[]
}

export interface OtlpExportOptions {
  /** Put messages, response text, tool arguments and results, and the handoff context in the spans. Default: false. */
  includeContent?: boolean
  /** Secrets to remove before anything is exported; see the `redact` option of session(). Default: the built-in secret shapes. */
  redact?: RedactOption
  /** The resource's `service.name`. Default: "reagent-flow". */
  serviceName?: string
}

const STANDARD_TURN_KEYS: ReadonlySet<string> = new Set(['index', 'llm_call', 'tool_results', 'duration_ms', 'unmatched_results'])
const STANDARD_CALL_KEYS: ReadonlySet<string> = new Set([
  'messages',
  'response_text',
  'tool_calls',
  'model',
  'token_usage',
  'timestamp',
  'latency_ms',
  'stop_reason',
  'provider',
  'error',
])
const CONTENT_TRACE_KEYS: ReadonlySet<string> = new Set(['handoff_context', 'orphan_results'])

function extraOf(value: Record<string, unknown>, standard: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !standard.has(key)))
}

function span(fields: Omit<OtlpSpan, 'kind'> & { error?: { type: string; message: string } | undefined }): OtlpSpan {
  const { error, ...rest } = fields
  if (error === undefined) return { ...rest, kind: SPAN_KIND_INTERNAL }
  return {
    ...rest,
    kind: SPAN_KIND_INTERNAL,
    attributes: [...(rest.attributes ?? []), attribute(GENERAL.errorType, error.type)],
    status: { code: STATUS_ERROR, message: error.message },
  }
}

/** A tool error ("TimeoutError: no answer") as a low-cardinality `error.type` ("TimeoutError"). */
function errorTypeOf(message: string): string {
  const prefix = /^([A-Za-z_][\w.]*):/.exec(message)?.[1]
  return prefix ?? '_OTHER'
}

class SpanWriter {
  readonly spans: OtlpSpan[] = []
  readonly #traceId: string
  readonly #content: boolean

  constructor(rootTraceId: string, includeContent: boolean) {
    this.#traceId = otelTraceId(rootTraceId)
    this.#content = includeContent
  }

  run(trace: Trace, parentSpanId: string | undefined): string {
    const spanId = otelSpanId(trace.trace_id, 'run')
    const fields = Object.fromEntries(Object.entries(trace).filter(([key]) => key !== 'turns' && (this.#content || !CONTENT_TRACE_KEYS.has(key))))
    const provider = trace.turns.find((turn) => typeof turn.llm_call.provider === 'string')?.llm_call.provider
    const attributes: OtlpKeyValue[] = [
      attribute(GEN_AI.operationName, OPERATION.invokeAgent),
      attribute(GEN_AI.agentName, trace.name),
      attribute(GEN_AI.agentId, trace.trace_id),
      attribute(REAGENT.trace, JSON.stringify(fields)),
    ]
    if (provider !== undefined) attributes.push(attribute(GEN_AI.providerName, provider))
    if (trace.session_id != null) attributes.push(attribute(GEN_AI.conversationId, trace.session_id))
    if (trace.user_id != null) attributes.push(attribute(GENERAL.userId, trace.user_id))
    const lastTurn = trace.turns.at(-1)
    const end = trace.ended_at ?? (lastTurn === undefined ? trace.started_at : lastTurn.llm_call.timestamp + lastTurn.duration_ms / 1000)
    const failed = trace.status === 'failed' || trace.status === 'cancelled' || (trace.error !== null && trace.error !== undefined)
    this.spans.push(
      span({
        traceId: this.#traceId,
        spanId,
        ...(parentSpanId === undefined ? {} : { parentSpanId }),
        name: `${OPERATION.invokeAgent} ${trace.name}`,
        startTimeUnixNano: nanosFromSeconds(trace.started_at),
        endTimeUnixNano: nanosFromSeconds(Math.max(end, trace.started_at)),
        attributes,
        error: failed ? { type: trace.error?.name ?? trace.status ?? 'Error', message: trace.error?.message ?? `the run ended ${trace.status}` } : undefined,
      }),
    )
    for (const [i, turn] of trace.turns.entries()) this.#turn(trace, turn, i, spanId)
    return spanId
  }

  #turn(trace: Trace, turn: Turn, index: number, runSpanId: string): void {
    const call: LlmCall = turn.llm_call
    const usage = call.token_usage
    const attributes: OtlpKeyValue[] = [attribute(GEN_AI.operationName, OPERATION.chat)]
    if (call.provider !== undefined) attributes.push(attribute(GEN_AI.providerName, call.provider))
    if (call.model !== null) attributes.push(attribute(GEN_AI.requestModel, call.model), attribute(GEN_AI.responseModel, call.model))
    if (typeof usage?.input_tokens === 'number') attributes.push(attribute(GEN_AI.inputTokens, usage.input_tokens))
    if (typeof usage?.output_tokens === 'number') attributes.push(attribute(GEN_AI.outputTokens, usage.output_tokens))
    if (call.stop_reason !== undefined) attributes.push(attribute(GEN_AI.responseFinishReasons, [call.stop_reason]))
    if (this.#content) {
      if (call.messages !== null) attributes.push(attribute(GEN_AI.inputMessages, inputMessagesOf(call.messages)))
      attributes.push(attribute(GEN_AI.outputMessages, outputMessagesOf(call)))
    }
    const error = call.error === undefined ? undefined : { name: call.error.name, message: call.error.message }
    attributes.push(
      attribute(REAGENT.turn, JSON.stringify({ duration_ms: turn.duration_ms, extra: extraOf(turn, STANDARD_TURN_KEYS) })),
      attribute(
        REAGENT.llmCall,
        JSON.stringify({
          token_usage: usage,
          ...(call.latency_ms === undefined ? { latency_ms: null } : {}),
          ...(error === undefined ? {} : { error }),
          extra: extraOf(call, STANDARD_CALL_KEYS),
        }),
      ),
    )
    const end = call.timestamp + (call.latency_ms ?? 0) / 1000
    this.spans.push(
      span({
        traceId: this.#traceId,
        spanId: otelSpanId(trace.trace_id, 'turn', index),
        parentSpanId: runSpanId,
        name: call.model === null ? OPERATION.chat : `${OPERATION.chat} ${call.model}`,
        startTimeUnixNano: nanosFromSeconds(call.timestamp),
        endTimeUnixNano: nanosFromSeconds(end),
        attributes,
        error: error === undefined ? undefined : { type: error.name, message: error.message },
      }),
    )
    const calls = new Map(call.tool_calls.map((toolCall) => [toolCall.call_id, toolCall]))
    const unmatchedNames = new Map((turn.unmatched_results ?? []).map((result) => [result.call_id, result.name]))
    turn.tool_results.forEach((result, r) => {
      const toolCall = calls.get(result.call_id)
      const name = toolCall?.name ?? unmatchedNames.get(result.call_id) ?? 'unknown'
      const toolAttributes: OtlpKeyValue[] = [
        attribute(GEN_AI.operationName, OPERATION.executeTool),
        attribute(GEN_AI.toolName, name),
        attribute(GEN_AI.toolCallId, result.call_id),
        attribute(GEN_AI.toolType, 'function'),
      ]
      toolAttributes.push(attribute(REAGENT.toolResult, JSON.stringify({ turn: index, ...(toolCall === undefined ? { unmatched: true } : {}) })))
      if (this.#content) {
        if (toolCall !== undefined) toolAttributes.push(attribute(GEN_AI.toolCallArguments, JSON.stringify(toolCall.arguments)))
        toolAttributes.push(attribute(GEN_AI.toolCallResult, JSON.stringify(result.result)))
      }
      this.spans.push(
        span({
          traceId: this.#traceId,
          spanId: otelSpanId(trace.trace_id, 'tool', index, r),
          parentSpanId: runSpanId,
          name: `${OPERATION.executeTool} ${name}`,
          startTimeUnixNano: nanosFromSeconds(end),
          endTimeUnixNano: nanosFromSeconds(end + result.duration_ms / 1000),
          attributes: toolAttributes,
          error: result.error === null ? undefined : { type: errorTypeOf(result.error), message: result.error },
        }),
      )
    })
  }
}

/** The run as its written file holds it: redacted (the in-memory trace keeps its secrets, the export must not). */
function redacted(trace: Trace, redact: RedactOption | undefined): Trace {
  // Nothing to remove: the trace is only read from here on.
  if (redact === false) return trace
  // The one redaction every writer uses, on the trace as it is (each call's whole history), not its compressed file form.
  return redactForDiskUnchecked(trace as unknown as JsonValue, redact) as unknown as Trace
}

/** Refuses, before any span is written, a run of `tree` nested deeper than a trace file may be (trace/depth.ts). */
function checkTree(tree: TraceTree): void {
  checkNesting(tree.trace)
  for (const child of tree.children) checkTree(child)
}

/**
 * The runs of `tree` (a run and those it started, as `loadChain` returns
 * them) as an OTLP/JSON `ExportTraceServiceRequest`. A run nested more than
 * 1,000 levels deep is refused with the `TraceFormatError` (rule `depth`)
 * the reader would give for its file.
 *
 * @example
 * const request = toOtlp(loadChain('support-agent'), { includeContent: true })
 * await fetch('http://127.0.0.1:4318/v1/traces', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) })
 */
export function toOtlp(tree: TraceTree, options: OtlpExportOptions = {}): OtlpExportRequest {
  checkTree(tree)
  const writer = new SpanWriter(tree.trace.trace_id, options.includeContent === true)
  const visit = (node: TraceTree, parentSpanId: string | undefined): void => {
    const spanId = writer.run(redacted(node.trace, options.redact), parentSpanId)
    for (const child of node.children) visit(child, spanId)
  }
  visit(tree, undefined)
  return {
    resourceSpans: [
      {
        resource: { attributes: [attribute(GENERAL.serviceName, options.serviceName ?? 'reagent-flow')] },
        scopeSpans: [{ scope: { name: 'reagent-flow' }, spans: writer.spans }],
      },
    ],
  }
}
