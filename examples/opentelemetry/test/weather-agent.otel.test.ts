// test/weather-agent.otel.test.ts
import { trace, type Tracer } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { expect } from 'vitest'
import { ReagentSpanProcessor } from 'reagent-flow/otel'
import { test } from 'reagent-flow/vitest'

// Your tracer provider: add ReagentSpanProcessor beside the processors and exporter you already have.
const exporter = new InMemorySpanExporter() // in your app: an OTLP exporter to Jaeger, Tempo, Phoenix...
const provider = new BasicTracerProvider({ spanProcessors: [new ReagentSpanProcessor(), new SimpleSpanProcessor(exporter)] })
trace.setGlobalTracerProvider(provider)

// An agent instrumented the GenAI way, as OpenLLMetry, OpenInference or your own code would do it.
async function weatherAgent(tracer: Tracer, city: string): Promise<string> {
  const ask = tracer.startSpan('chat gpt-4o', {
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 8,
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `Weather in ${city}?` }] }]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city } }] }]),
    },
  })
  ask.end()
  const tool = tracer.startSpan('execute_tool get_weather', {
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.call.result': JSON.stringify({ city, temperature_c: 18 }),
    },
  })
  tool.end()
  const answer = tracer.startSpan('chat gpt-4o', {
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `Sunny in ${city}.` }] }]),
    },
  })
  answer.end()
  return `Sunny in ${city}.`
}

test('the spans the agent ends inside the session become its turns', async ({ agentSession }) => {
  const s = await agentSession(() => weatherAgent(trace.getTracer('weather-agent'), 'Paris'))

  expect(s).toHaveCalledToolWith('get_weather', { city: 'Paris' })
  expect(s.trace.turns[0]!.tool_results[0]!.result).toEqual({ city: 'Paris', temperature_c: 18 })
  expect(s.trace.turns[0]!.llm_call).toMatchObject({ model: 'gpt-4o', provider: 'openai', token_usage: { input_tokens: 40, output_tokens: 8 } })
  expect(s).toHaveFinalAnswer('Sunny in Paris.')
  expect(exporter.getFinishedSpans()).toHaveLength(3) // your exporter still gets every span
})
