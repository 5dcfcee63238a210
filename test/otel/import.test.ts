import { OpenInferenceSpanKind, SemanticConventions as OI } from '@arizeai/openinference-semantic-conventions'
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_COMPLETION,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROMPT,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_SYSTEM,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_PROMPT_TOKENS,
  ATTR_GEN_AI_USAGE_COMPLETION_TOKENS,
  ATTR_USER_ID,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
} from '@opentelemetry/semantic-conventions/incubating'
import { LLMRequestTypeValues, SpanAttributes as TL, TraceloopSpanKindValues } from '@traceloop/ai-semantic-conventions'
import { describe, expect, it } from 'vitest'
import { OtlpFormatError } from '../../src/errors/index.js'
import type { Trace } from '../../src/entries/index.js'
import { fromOtlp } from '../../src/entries/otel.js'
import { spanFile } from './helpers.js'

/** Milliseconds since the epoch of the spans' start: 2027-01-15 08:00:00 UTC. */
const T = 1_800_000_000_000

function turnsOf(trace: Trace): unknown[] {
  return trace.turns.map((turn) => ({
    messages: turn.llm_call.messages,
    text: turn.llm_call.response_text,
    calls: turn.llm_call.tool_calls.map((call) => [call.name, call.arguments, call.call_id]),
    model: turn.llm_call.model,
    provider: turn.llm_call.provider,
    usage: turn.llm_call.token_usage,
    latency_ms: turn.llm_call.latency_ms,
    results: turn.tool_results.map((result) => [result.call_id, result.result, result.error, result.duration_ms]),
  }))
}

describe('fromOtlp: spans of the three dialects as traces', () => {
  it('reads the GenAI conventions: invoke_agent runs (a nested one as a child), chat calls with their JSON messages, execute_tool results', async () => {
    const file = spanFile()
    const triage = file.start(
      'invoke_agent triage',
      {
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
        [ATTR_GEN_AI_AGENT_NAME]: 'triage',
        [ATTR_GEN_AI_CONVERSATION_ID]: 'conv-1',
        [ATTR_USER_ID]: 'user-1',
      },
      undefined,
      T,
    )
    const chat = file.start(
      'chat gpt-4o',
      {
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
        [ATTR_GEN_AI_PROVIDER_NAME]: 'openai',
        [ATTR_GEN_AI_REQUEST_MODEL]: 'gpt-4o',
        [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: 50,
        [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: 9,
        [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: ['stop'],
        [ATTR_GEN_AI_INPUT_MESSAGES]: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Refund order 42' }] }]),
        [ATTR_GEN_AI_OUTPUT_MESSAGES]: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Handing over.' }], finish_reason: 'stop' }]),
      },
      triage,
      T + 10,
    )
    chat.end(T + 110)
    const billing = file.start(
      'invoke_agent billing',
      { [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT, [ATTR_GEN_AI_AGENT_NAME]: 'billing' },
      triage,
      T + 120,
    )
    const billingChat = file.start(
      'chat gpt-4o',
      {
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
        [ATTR_GEN_AI_REQUEST_MODEL]: 'gpt-4o',
        [ATTR_GEN_AI_OUTPUT_MESSAGES]: JSON.stringify([
          { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_9', name: 'issue_refund', arguments: { order_id: '42' } }] },
        ]),
      },
      billing,
      T + 130,
    )
    billingChat.end(T + 200)
    const tool = file.start(
      'execute_tool issue_refund',
      {
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
        [ATTR_GEN_AI_TOOL_NAME]: 'issue_refund',
        [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_9',
        [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: '{"order_id":"42"}',
        [ATTR_GEN_AI_TOOL_CALL_RESULT]: '{"refunded":true}',
      },
      billing,
      T + 210,
    )
    tool.end(T + 235)
    billing.end(T + 300)
    triage.end(T + 310)

    const { traces, dialect } = await fromOtlp(file.otlpJson())

    expect(dialect).toBe('genai')
    const [triageTrace, billingTrace] = traces
    expect(traces.map((trace) => [trace.name, trace.parent_trace_id])).toEqual([
      ['triage', null],
      ['billing', triageTrace!.trace_id],
    ])
    expect(triageTrace).toMatchObject({
      session_id: 'conv-1',
      user_id: 'user-1',
      started_at: 1_800_000_000,
      ended_at: 1_800_000_000.31,
      status: 'completed',
      error: null,
    })
    expect(triageTrace!.trace_id).toMatch(/^otel-[0-9a-f]{32}-[0-9a-f]{16}$/)
    expect(triageTrace!.metadata).toEqual({
      otel: { trace_id: triageTrace!.trace_id.slice(5, 37), span_id: triageTrace!.trace_id.slice(38), dialect: 'genai' },
    })
    expect(turnsOf(triageTrace!)).toEqual([
      {
        messages: [{ role: 'user', content: 'Refund order 42' }],
        text: 'Handing over.',
        calls: [],
        model: 'gpt-4o',
        provider: 'openai',
        usage: { input_tokens: 50, output_tokens: 9 },
        latency_ms: 100,
        results: [],
      },
    ])
    expect(turnsOf(billingTrace!)).toEqual([
      {
        messages: null,
        text: null,
        calls: [['issue_refund', { order_id: '42' }, 'call_9']],
        model: 'gpt-4o',
        provider: undefined,
        usage: null,
        latency_ms: 70,
        results: [['call_9', { refunded: true }, null, 25]],
      },
    ])
  })

  it('reads OpenInference: an AGENT span, LLM spans with flattened messages and tool calls, a TOOL span with input and output values', async () => {
    const file = spanFile()
    const message = (prefix: string, i: number, key: string): string => `${prefix}.${i}.${key}`
    const agent = file.start(
      'weather-agent',
      { [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.AGENT, [OI.AGENT_NAME]: 'weather-agent', [OI.SESSION_ID]: 'conv-2', [OI.USER_ID]: 'user-2' },
      undefined,
      T,
    )
    const ask = file.start(
      'ChatCompletion',
      {
        [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.LLM,
        [OI.LLM_MODEL_NAME]: 'gpt-4o-mini',
        [OI.LLM_PROVIDER]: 'openai',
        [message(OI.LLM_INPUT_MESSAGES, 0, OI.MESSAGE_ROLE)]: 'system',
        [message(OI.LLM_INPUT_MESSAGES, 0, OI.MESSAGE_CONTENT)]: 'You are a weather assistant.',
        [message(OI.LLM_INPUT_MESSAGES, 1, OI.MESSAGE_ROLE)]: 'user',
        [message(OI.LLM_INPUT_MESSAGES, 1, OI.MESSAGE_CONTENT)]: 'Weather in Paris?',
        [message(OI.LLM_OUTPUT_MESSAGES, 0, OI.MESSAGE_ROLE)]: 'assistant',
        [`${message(OI.LLM_OUTPUT_MESSAGES, 0, OI.MESSAGE_TOOL_CALLS)}.0.${OI.TOOL_CALL_ID}`]: 'call_paris',
        [`${message(OI.LLM_OUTPUT_MESSAGES, 0, OI.MESSAGE_TOOL_CALLS)}.0.${OI.TOOL_CALL_FUNCTION_NAME}`]: 'get_weather',
        [`${message(OI.LLM_OUTPUT_MESSAGES, 0, OI.MESSAGE_TOOL_CALLS)}.0.${OI.TOOL_CALL_FUNCTION_ARGUMENTS_JSON}`]: '{"city":"Paris"}',
        [OI.LLM_TOKEN_COUNT_PROMPT]: 82,
        [OI.LLM_TOKEN_COUNT_COMPLETION]: 16,
        [OI.LLM_TOKEN_COUNT_TOTAL]: 98,
      },
      agent,
      T + 5,
    )
    ask.end(T + 300)
    const tool = file.start(
      'get_weather',
      {
        [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.TOOL,
        [OI.TOOL_NAME]: 'get_weather',
        [OI.INPUT_VALUE]: '{"city":"Paris"}',
        [OI.OUTPUT_VALUE]: '{"temperature_c":18}',
      },
      agent,
      T + 310,
    )
    tool.end(T + 322)
    const answer = file.start(
      'ChatCompletion',
      {
        [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.LLM,
        [OI.LLM_MODEL_NAME]: 'gpt-4o-mini',
        [message(OI.LLM_OUTPUT_MESSAGES, 0, OI.MESSAGE_ROLE)]: 'assistant',
        [message(OI.LLM_OUTPUT_MESSAGES, 0, OI.MESSAGE_CONTENT)]: 'It is 18°C in Paris.',
      },
      agent,
      T + 330,
    )
    answer.end(T + 400)
    agent.end(T + 410)

    const { traces, dialect } = await fromOtlp(file.otlpJson())

    expect(dialect).toBe('openinference')
    expect(traces.map((trace) => [trace.name, trace.session_id, trace.user_id])).toEqual([['weather-agent', 'conv-2', 'user-2']])
    expect(turnsOf(traces[0]!)).toEqual([
      {
        messages: [
          { role: 'system', content: 'You are a weather assistant.' },
          { role: 'user', content: 'Weather in Paris?' },
        ],
        text: null,
        calls: [['get_weather', { city: 'Paris' }, 'call_paris']],
        model: 'gpt-4o-mini',
        provider: 'openai',
        usage: { input_tokens: 82, output_tokens: 16, total_tokens: 98 },
        latency_ms: 295,
        results: [['call_paris', { temperature_c: 18 }, null, 12]],
      },
      { messages: null, text: 'It is 18°C in Paris.', calls: [], model: 'gpt-4o-mini', provider: undefined, usage: null, latency_ms: 70, results: [] },
    ])
  })

  it('reads OpenLLMetry: a workflow span, chat spans with indexed prompts and completions, a tool span with its entity input and output, and a failed tool', async () => {
    const file = spanFile()
    const workflow = file.start(
      'support.workflow',
      {
        [TL.TRACELOOP_SPAN_KIND]: TraceloopSpanKindValues.WORKFLOW,
        [TL.TRACELOOP_ENTITY_NAME]: 'support',
        [`${TL.TRACELOOP_ASSOCIATION_PROPERTIES}.session_id`]: 'conv-3',
      },
      undefined,
      T,
    )
    const chat = file.start(
      'openai.chat',
      {
        [TL.LLM_REQUEST_TYPE]: LLMRequestTypeValues.CHAT,
        [ATTR_GEN_AI_SYSTEM]: 'openai',
        [ATTR_GEN_AI_REQUEST_MODEL]: 'gpt-4o',
        [`${ATTR_GEN_AI_PROMPT}.0.role`]: 'user',
        [`${ATTR_GEN_AI_PROMPT}.0.content`]: 'Refund order 42 and 43',
        [`${ATTR_GEN_AI_COMPLETION}.0.role`]: 'assistant',
        [`${ATTR_GEN_AI_COMPLETION}.0.finish_reason`]: 'tool_calls',
        [`${ATTR_GEN_AI_COMPLETION}.0.tool_calls.0.name`]: 'issue_refund',
        [`${ATTR_GEN_AI_COMPLETION}.0.tool_calls.0.arguments`]: '{"order_id":"42"}',
        [`${ATTR_GEN_AI_COMPLETION}.0.tool_calls.1.name`]: 'issue_refund',
        [`${ATTR_GEN_AI_COMPLETION}.0.tool_calls.1.arguments`]: '{"order_id":"43"}',
        [ATTR_GEN_AI_USAGE_PROMPT_TOKENS]: 30,
        [ATTR_GEN_AI_USAGE_COMPLETION_TOKENS]: 12,
        [TL.LLM_USAGE_TOTAL_TOKENS]: 42,
      },
      workflow,
      T + 10,
    )
    chat.end(T + 60)
    const refund = (order: string, start: number, fails: boolean): void => {
      const tool = file.start(
        'issue_refund.tool',
        {
          [TL.TRACELOOP_SPAN_KIND]: TraceloopSpanKindValues.TOOL,
          [TL.TRACELOOP_ENTITY_NAME]: 'issue_refund',
          [TL.TRACELOOP_ENTITY_INPUT]: JSON.stringify({ args: [{ order_id: order }], kwargs: {} }),
          ...(fails ? {} : { [TL.TRACELOOP_ENTITY_OUTPUT]: JSON.stringify({ refunded: order }) }),
        },
        workflow,
        start,
      )
      if (fails) tool.setStatus({ code: 2, message: 'RefundError: order 43 was never paid' })
      tool.end(start + 3)
    }
    refund('42', T + 70, false)
    refund('43', T + 80, true)
    workflow.end(T + 100)

    const { traces, dialect } = await fromOtlp(file.otlpJson())

    expect(dialect).toBe('openllmetry')
    expect(traces.map((trace) => [trace.name, trace.session_id])).toEqual([['support', 'conv-3']])
    const [turn] = traces[0]!.turns
    expect(turn!.llm_call).toMatchObject({
      model: 'gpt-4o',
      provider: 'openai',
      stop_reason: 'tool_calls',
      token_usage: { input_tokens: 30, output_tokens: 12, total_tokens: 42 },
    })
    expect(turn!.llm_call.messages).toEqual([{ role: 'user', content: 'Refund order 42 and 43' }])
    const [first, second] = turn!.llm_call.tool_calls
    expect([first!.arguments, second!.arguments]).toEqual([{ order_id: '42' }, { order_id: '43' }])
    expect(turn!.tool_results).toEqual([
      { call_id: first!.call_id, result: { refunded: '42' }, error: null, duration_ms: 3 },
      { call_id: second!.call_id, result: null, error: 'RefundError: order 43 was never paid', duration_ms: 3 },
    ])
  })

  it('says what is wrong with a file that is not OTLP/JSON, or holds no GenAI span, naming where', async () => {
    await expect(fromOtlp({ spans: [] }, { source: 'spans.json' })).rejects.toThrow(
      new OtlpFormatError(
        'spans.json',
        '',
        'not an OTLP/JSON trace export: expected an object with a "resourceSpans" array (what an OTLP/HTTP exporter sends, or the Collector\'s file exporter writes)',
      ),
    )
    const badId = {
      resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'xyz', spanId: '0123456789abcdef', name: 'a', startTimeUnixNano: '1', endTimeUnixNano: '2' }] }] }],
    }
    await expect(fromOtlp(badId, { source: 'spans.json' })).rejects.toThrow(
      'spans.json at resourceSpans[0].scopeSpans[0].spans[0].traceId: expected 32 hex digits',
    )
    const file = spanFile()
    file.start('GET /health', { 'http.request.method': 'GET' }).end()
    await expect(fromOtlp(file.otlpJson(), { source: 'http.json' })).rejects.toThrow(
      'http.json: none of its 1 span(s) is a GenAI span (no gen_ai.operation.name, openinference.span.kind, traceloop.span.kind or llm.request.type attribute); record the agent with an OpenTelemetry GenAI, OpenInference or OpenLLMetry instrumentation',
    )
  })
})
