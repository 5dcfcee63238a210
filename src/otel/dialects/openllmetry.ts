/**
 * OpenLLMetry (Traceloop): `traceloop.span.kind` marks workflow, agent, task
 * and tool spans (named by `traceloop.entity.name`, with their input and
 * output as JSON in `traceloop.entity.input`/`output`); model calls carry
 * `llm.request.type` and the indexed `gen_ai.prompt.N.*` and
 * `gen_ai.completion.N.*` attributes, tool calls as
 * `gen_ai.completion.N.tool_calls.M.*`.
 */
import { GEN_AI } from '../attributes.js'
import type { AttributeValue } from '../otlp-json.js'
import { count, indexed, jsonOrText, spanError, text, usage, type Dialect, type SpanRole } from './dialect.js'

const SPAN_KIND = 'traceloop.span.kind'
const REQUEST_TYPE = 'llm.request.type'
const ENTITY_NAME = 'traceloop.entity.name'
const ASSOCIATION = 'traceloop.association.properties'

function toolCallsOf(completion: Map<string, AttributeValue>): Array<{ name: string; arguments?: unknown; callId?: string }> {
  const calls = new Map<number, { name: string; arguments?: unknown; callId?: string }>()
  for (const [key, value] of completion) {
    const match = /^tool_calls\.(\d+)\.(name|arguments|id)$/.exec(key)
    if (match === null) continue
    const call = calls.get(Number(match[1])) ?? { name: 'unknown' }
    if (match[2] === 'name') call.name = String(value)
    else if (match[2] === 'arguments') call.arguments = value
    else call.callId = String(value)
    calls.set(Number(match[1]), call)
  }
  return [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call)
}

/** A decorated function's input as OpenLLMetry writes it (`{ args: [...], kwargs: {...} }`): its one argument, or its keyword arguments. */
function entityInput(value: unknown): unknown {
  const args = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['args'] : undefined
  const kwargs = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['kwargs'] : undefined
  if (Array.isArray(args) && args.length === 1 && (kwargs === undefined || Object.keys(kwargs as object).length === 0)) return args[0]
  if (Array.isArray(args) && args.length === 0 && kwargs !== undefined) return kwargs
  return value
}

export const openLlmetry: Dialect = {
  name: 'openllmetry',
  speaks: (span) => span.attributes.has(SPAN_KIND) || span.attributes.has(REQUEST_TYPE),
  role(span): SpanRole {
    switch (text(span, SPAN_KIND)) {
      case 'workflow':
        return 'workflow'
      case 'agent':
        return 'agent'
      case 'tool':
        return 'tool'
    }
    return span.attributes.has(REQUEST_TYPE) ? 'llm' : 'other'
  },
  runName: (span) => text(span, ENTITY_NAME) ?? text(span, 'traceloop.workflow.name') ?? span.name,
  sessionId: (span) => text(span, `${ASSOCIATION}.session_id`),
  userId: (span) => text(span, `${ASSOCIATION}.user_id`),
  llm(span) {
    const prompts = indexed(span, GEN_AI.prompt)
    const completions = indexed(span, GEN_AI.completion)
    const texts = completions
      .map((completion) => completion.get('content'))
      .filter((content): content is string => typeof content === 'string' && content !== '')
    const reason = completions[0]?.get('finish_reason')
    return {
      messages:
        prompts.length === 0 ? null : prompts.map((prompt) => ({ role: String(prompt.get('role') ?? 'unknown'), content: prompt.get('content') ?? null })),
      responseText: texts.length === 0 ? null : texts.join(''),
      toolCalls: completions.flatMap(toolCallsOf),
      model: text(span, GEN_AI.responseModel) ?? text(span, GEN_AI.requestModel),
      provider: text(span, GEN_AI.system) ?? text(span, GEN_AI.providerName),
      tokenUsage: usage(
        count(span, GEN_AI.inputTokens, GEN_AI.promptTokens),
        count(span, GEN_AI.outputTokens, GEN_AI.completionTokens),
        count(span, 'llm.usage.total_tokens', 'gen_ai.usage.total_tokens'),
      ),
      stopReason: typeof reason === 'string' ? reason : null,
      error: spanError(span),
    }
  },
  tool(span) {
    const error = spanError(span)
    const input = span.attributes.get('traceloop.entity.input')
    return {
      name: text(span, ENTITY_NAME) ?? span.name.replace(/\.tool$/, ''),
      callId: text(span, GEN_AI.toolCallId),
      arguments: input === undefined ? undefined : entityInput(jsonOrText(input)),
      result: span.attributes.has('traceloop.entity.output') ? jsonOrText(span.attributes.get('traceloop.entity.output')) : null,
      error: error === null ? null : error.message,
    }
  },
}
