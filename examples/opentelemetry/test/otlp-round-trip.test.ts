// test/otlp-round-trip.test.ts
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import { afterAll, expect } from 'vitest'
import { loadChain } from 'reagent-flow'
import { scriptedFetch } from 'reagent-flow/fake'
import { normalizeTrace } from 'reagent-flow/golden'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { fromOtlp, postOtlp, toOtlp } from 'reagent-flow/otel'
import { test } from 'reagent-flow/vitest'

// Stands in for an OTLP/HTTP receiver (the Collector, Jaeger, Tempo, Phoenix, Langfuse): keeps what it is sent.
const received: { path: string; authorization: string | undefined; body: string }[] = []
const receiver = createServer((request, response) => {
  let body = ''
  request.on('data', (chunk: Buffer) => (body += chunk.toString()))
  request.on('end', () => {
    received.push({ path: request.url ?? '', authorization: request.headers.authorization, body })
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
afterAll(() => void receiver.close())

test('a run goes out as GenAI spans and comes back as the same run', async ({ agentSession }) => {
  // In your app: instrumentOpenAI(new OpenAI()). Here a scripted model answers, offline.
  const fetch = scriptedFetch([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'Sunny in Paris.' }])
  const openai = instrumentOpenAI(new OpenAI({ apiKey: 'sk-test', fetch }))
  const s = await agentSession(async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }]
    const first = (await openai.chat.completions.create({ model: 'gpt-4o', messages })).choices[0]!.message
    messages.push(first, { role: 'tool', tool_call_id: first.tool_calls![0]!.id, content: '{"temperature_c":18}' })
    return (await openai.chat.completions.create({ model: 'gpt-4o', messages })).choices[0]!.message.content
  })

  const request = toOtlp(loadChain(s), { includeContent: true }) // an OTLP/JSON ExportTraceServiceRequest
  await postOtlp(endpoint, request, { headers: { Authorization: 'Basic dXNlcjpwYXNz' } })

  expect(received.map(({ path, authorization }) => [path, authorization])).toEqual([['/v1/traces', 'Basic dXNlcjpwYXNz']])
  const spans = request.resourceSpans.flatMap((resource) => (resource.scopeSpans ?? []).flatMap((scope) => (scope.spans ?? []).map((span) => span.name)))
  expect(spans).toEqual(['invoke_agent a run goes out as GenAI spans and comes back as the same run', 'chat gpt-4o', 'execute_tool get_weather', 'chat gpt-4o'])

  const { traces, dialect } = await fromOtlp(JSON.parse(received[0]!.body), { dialect: 'auto' })
  expect(dialect).toBe('genai')
  expect(normalizeTrace(traces[0]!)).toEqual(normalizeTrace(s.trace))
})
