/**
 * The model the replay bench records: a local node:http server that speaks
 * chat completions for bench/fixtures/replay-suite/agent.ts. Asked for the
 * weather of the next N days, it asks for one day per call (a `get_weather`
 * tool call) until the conversation holds N tool results, then answers.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

interface ChatRequest {
  messages: Array<{ role: string; content?: unknown }>
}

function completion(id: number, message: Record<string, unknown>, finishReason: string, promptTokens: number): string {
  return JSON.stringify({
    id: `chatcmpl-bench-${id}`,
    object: 'chat.completion',
    created: 1_741_570_283,
    model: 'gpt-4o-2024-08-06',
    choices: [
      { index: 0, message: { role: 'assistant', content: null, refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: finishReason },
    ],
    usage: { prompt_tokens: promptTokens, completion_tokens: 16, total_tokens: promptTokens + 16 },
    service_tier: 'default',
    system_fingerprint: 'fp_bench',
  })
}

function answer(request: ChatRequest, id: number): string {
  const question = String(request.messages.find((message) => message.role === 'user')?.content ?? '')
  const city = /weather in (.+) for the next/.exec(question)?.[1] ?? 'somewhere'
  const days = Number(/next (\d+) days/.exec(question)?.[1] ?? 1)
  const done = request.messages.filter((message) => message.role === 'tool').length
  const tokens = 60 + request.messages.length * 25
  if (done >= days) return completion(id, { content: `The weather in ${city}: mild for ${days} days.` }, 'stop', tokens)
  const call = { id: `call_bench_${id}`, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city, day: done + 1 }) } }
  return completion(id, { tool_calls: [call] }, 'tool_calls', tokens)
}

export interface WeatherServer {
  /** The base URL for the OpenAI client: `http://127.0.0.1:<port>/v1`. */
  url: string
  requests: () => number
  close: () => Promise<void>
}

export async function startWeatherServer(): Promise<WeatherServer> {
  let requests = 0
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      requests++
      const body = answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest, requests)
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      response.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
