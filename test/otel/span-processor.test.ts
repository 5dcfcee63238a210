import { OpenInferenceSpanKind, SemanticConventions as OI } from '@arizeai/openinference-semantic-conventions'
import {
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '@opentelemetry/semantic-conventions/incubating'
import { describe, expect, it } from 'vitest'
import '../../src/entries/vitest.js'
import { session } from '../../src/entries/index.js'
import { ReagentSpanProcessor } from '../../src/entries/otel.js'
import { captureWarnings } from '../helpers/warnings.js'
import { spanFile, type SpanFileBuilder } from './helpers.js'

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2))

/** An app's agent loop, instrumented the GenAI way: a chat call asking for a tool, the tool, the answer. */
async function weatherAgent(file: SpanFileBuilder, city: string): Promise<string> {
  const ask = file.start('chat gpt-4o', {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
    [ATTR_GEN_AI_PROVIDER_NAME]: 'openai',
    [ATTR_GEN_AI_REQUEST_MODEL]: 'gpt-4o',
    [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: 40,
    [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: 8,
    [ATTR_GEN_AI_INPUT_MESSAGES]: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `Weather in ${city}?` }] }]),
    [ATTR_GEN_AI_OUTPUT_MESSAGES]: JSON.stringify([
      { role: 'assistant', parts: [{ type: 'tool_call', id: `call_${city}`, name: 'get_weather', arguments: { city } }] },
    ]),
  })
  await tick()
  ask.end()
  const tool = file.start('execute_tool get_weather', {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    [ATTR_GEN_AI_TOOL_NAME]: 'get_weather',
    [ATTR_GEN_AI_TOOL_CALL_ID]: `call_${city}`,
    [ATTR_GEN_AI_TOOL_CALL_RESULT]: JSON.stringify({ city, temperature_c: 18 }),
  })
  await tick()
  tool.end()
  const answer = file.start('chat gpt-4o', {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_CHAT,
    [ATTR_GEN_AI_REQUEST_MODEL]: 'gpt-4o',
    [ATTR_GEN_AI_OUTPUT_MESSAGES]: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `Sunny in ${city}.` }] }]),
  })
  await tick()
  answer.end()
  return `Sunny in ${city}.`
}

describe('ReagentSpanProcessor: GenAI spans ended inside a session() are recorded into it', () => {
  it('records a tool loop instrumented with OpenTelemetry, with the real BasicTracerProvider, and nothing ended outside sessions', async () => {
    const file = spanFile(new ReagentSpanProcessor())
    await weatherAgent(file, 'Oslo')

    const s = await session('weather', { save: false }, () => weatherAgent(file, 'Paris'))

    expect(s.output).toBe('Sunny in Paris.')
    expect(s).toHaveCalledToolWith('get_weather', { city: 'Paris' })
    s.assertToolSucceeded('get_weather')
    const [ask, answer] = s.trace.turns
    expect(s.trace.turns).toHaveLength(2)
    expect(ask!.llm_call).toMatchObject({
      model: 'gpt-4o',
      provider: 'openai',
      token_usage: { input_tokens: 40, output_tokens: 8 },
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    })
    expect(ask!.tool_results).toEqual([{ call_id: 'call_Paris', result: { city: 'Paris', temperature_c: 18 }, error: null, duration_ms: expect.any(Number) }])
    expect(ask!.tool_results[0]!.duration_ms).toBeGreaterThanOrEqual(1)
    expect(answer!.llm_call.response_text).toBe('Sunny in Paris.')
    expect(answer!.llm_call.timestamp).toBeGreaterThan(ask!.llm_call.timestamp)
  })

  it('keeps concurrent sessions apart: each records the spans ended in its own async context', async () => {
    const file = spanFile(new ReagentSpanProcessor())
    const cities = ['Paris', 'Rome', 'Lima', 'Kyiv']
    const sessions = await Promise.all(cities.map((city) => session(city, { save: false }, () => weatherAgent(file, city))))
    for (const s of sessions) {
      expect(s.trace.turns.map((turn) => turn.llm_call.tool_calls.map((call) => call.call_id))).toEqual([[`call_${s.name}`], []])
    }
  })

  it('reads the dialect the spans speak: OpenInference LLM and TOOL spans, tool matched by name', async () => {
    const file = spanFile(new ReagentSpanProcessor())
    const s = await session('oi', { save: false }, () => {
      file
        .start('llm', {
          [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.LLM,
          [OI.LLM_MODEL_NAME]: 'claude-sonnet-4-5',
          [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.0.${OI.TOOL_CALL_FUNCTION_NAME}`]: 'search',
          [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.0.${OI.TOOL_CALL_FUNCTION_ARGUMENTS_JSON}`]: '{"q":"refunds"}',
        })
        .end()
      file.start('search', { [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.TOOL, [OI.TOOL_NAME]: 'search', [OI.OUTPUT_VALUE]: 'three results' }).end()
    })
    expect(
      s.trace.turns.map((turn) => [
        turn.llm_call.model,
        turn.llm_call.tool_calls.map((call) => [call.name, call.arguments]),
        turn.tool_results.map((result) => result.result),
      ]),
    ).toEqual([['claude-sonnet-4-5', [['search', { q: 'refunds' }]], ['three results']]])
  })

  it('records nothing, and warns of nothing, for a session whose spans are not GenAI spans', async () => {
    const warnings = captureWarnings()
    const file = spanFile(new ReagentSpanProcessor())
    const s = await session('http-only', { save: false }, () => file.start('GET /health', { 'http.request.method': 'GET' }).end())
    expect(s.trace.turns).toEqual([])
    expect(await warnings.seen()).toEqual([])
  })

  it('names the option and the valid values when it is built wrong', () => {
    expect(() => new ReagentSpanProcessor({ dialekt: 'genai' } as never)).toThrow(
      new TypeError('Unknown ReagentSpanProcessor option "dialekt". Valid options: dialect.'),
    )
    expect(() => new ReagentSpanProcessor({ dialect: 'langfuse' } as never)).toThrow(
      new RangeError('ReagentSpanProcessor option "dialect" must be one of auto, genai, openinference, openllmetry; got "langfuse".'),
    )
  })
})
