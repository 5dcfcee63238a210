/**
 * OpenInference (Arize Phoenix's conventions): `openinference.span.kind` says
 * what a span is (AGENT, CHAIN, LLM, TOOL); messages are flattened into
 * indexed attributes (`llm.input_messages.0.message.role`), tool calls into
 * `message.tool_calls.N.tool_call.*`; a tool's input and output are
 * `input.value` and `output.value`.
 */
import type { AttributeValue } from '../otlp-json.js'
import type { SpanRecord } from '../span-record.js'
import { count, indexed, jsonOrText, spanError, text, usage, type Dialect, type SpanRole } from './dialect.js'

const KIND = 'openinference.span.kind'

function messageContent(message: Map<string, AttributeValue>): unknown {
  const content = message.get('message.content')
  if (content !== undefined) return content
  const parts = [...message.entries()].filter(([key]) => /^message\.contents\.\d+\.message_content\.text$/.test(key)).map(([, value]) => value)
  return parts.length === 0 ? null : parts.join('')
}

function toolCallsOf(message: Map<string, AttributeValue>): Array<{ name: string; arguments?: unknown; callId?: string }> {
  const calls = new Map<number, { name: string; arguments?: unknown; callId?: string }>()
  for (const [key, value] of message) {
    const match = /^message\.tool_calls\.(\d+)\.tool_call\.(function\.name|function\.arguments|id)$/.exec(key)
    if (match === null) continue
    const index = Number(match[1])
    const call = calls.get(index) ?? { name: 'unknown' }
    if (match[2] === 'function.name') call.name = String(value)
    else if (match[2] === 'function.arguments') call.arguments = value
    else call.callId = String(value)
    calls.set(index, call)
  }
  return [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call)
}

function messagesOf(span: SpanRecord, prefix: string): Array<Map<string, AttributeValue>> {
  return indexed(span, prefix)
}

export const openInference: Dialect = {
  name: 'openinference',
  speaks: (span) => span.attributes.has(KIND),
  role(span, isRoot): SpanRole {
    switch (text(span, KIND)?.toUpperCase()) {
      case 'AGENT':
        return 'agent'
      case 'LLM':
        return 'llm'
      case 'TOOL':
        return 'tool'
      case 'CHAIN':
        return isRoot ? 'workflow' : 'other'
      default:
        return 'other'
    }
  },
  runName: (span) => text(span, 'agent.name') ?? span.name,
  sessionId: (span) => text(span, 'session.id'),
  userId: (span) => text(span, 'user.id'),
  llm(span) {
    const input = messagesOf(span, 'llm.input_messages')
    const output = messagesOf(span, 'llm.output_messages')
    const texts = output.map(messageContent).filter((content): content is string => typeof content === 'string')
    return {
      messages:
        input.length === 0 ? null : input.map((message) => ({ role: String(message.get('message.role') ?? 'unknown'), content: messageContent(message) })),
      responseText: texts.length === 0 ? null : texts.join(''),
      toolCalls: output.flatMap(toolCallsOf),
      model: text(span, 'llm.model_name') ?? text(span, 'llm.response.model_name') ?? text(span, 'llm.request.model_name'),
      provider: text(span, 'llm.provider') ?? text(span, 'llm.system'),
      tokenUsage: usage(count(span, 'llm.token_count.prompt'), count(span, 'llm.token_count.completion'), count(span, 'llm.token_count.total')),
      stopReason: text(span, 'llm.finish_reason'),
      error: spanError(span),
    }
  },
  tool(span) {
    const error = spanError(span)
    return {
      name: text(span, 'tool.name') ?? span.name,
      callId: text(span, 'tool_call.id') ?? text(span, 'tool.id'),
      arguments: jsonOrText(span.attributes.get('input.value') ?? span.attributes.get('tool.parameters')),
      result: span.attributes.has('output.value') ? jsonOrText(span.attributes.get('output.value')) : null,
      error: error === null ? null : error.message,
    }
  },
}
