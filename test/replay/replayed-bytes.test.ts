import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { session } from '../../src/entries/index.js'
import { inOrder, startCannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { json, openaiClient, sse } from '../adapters/openai/helpers.js'

type Client = ReturnType<typeof openaiClient>

interface RecordedStep {
  request: unknown
  response: { body?: unknown; events?: Array<{ event?: string; data?: unknown; text?: string }> }
}

/** The steps of the recording file `name` wrote in `dir`, as the file holds them. */
function recordedSteps(dir: string, name: string): RecordedStep[] {
  const file = JSON.parse(readFileSync(join(dir, `${name}.recording.json`), 'utf8')) as { scopes: Array<{ steps: RecordedStep[] }> }
  return file.scopes[0]!.steps
}

/** A recorded stream as the wire carries it: each event's name line, then its data (JSON as compact text), then a blank line. */
function eventStreamText(events: NonNullable<RecordedStep['response']['events']>): string {
  return events
    .map((event) => {
      const payload = event.text ?? JSON.stringify(event.data)
      const lines = payload.split('\n').map((line) => `data: ${line}`)
      return `${event.event === undefined ? '' : `event: ${event.event}\n`}${lines.join('\n')}\n\n`
    })
    .join('')
}

/** The calls, recorded against the canned server and then replayed with no server: the raw body text of each replayed call. */
async function replayedBodies(name: string, answers: Parameters<typeof inOrder>, calls: (client: Client) => Promise<Response[]>) {
  const dir = tempDir('reagent-replayed-bytes-')
  const server = await startCannedServer(inOrder(...answers))
  await session(name, { traceDir: dir, replay: 'record' }, () => calls(openaiClient(server)))
  await server.close()
  const replayed = await session(name, { traceDir: dir, replay: 'replay' }, async () => {
    const responses = await calls(openaiClient(server))
    return Promise.all(responses.map((response) => response.text()))
  })
  return { texts: replayed.output, steps: recordedSteps(dir, name) }
}

const QUESTION = { role: 'user' as const, content: 'What is the weather in Paris?' }

describe('a replayed call answers the exact bytes of its recorded body (OpenAI SDK, instrumentOpenAI)', () => {
  it('chat completions and the Responses API: the recorded JSON body as compact JSON text, in its recorded key order', async () => {
    const { texts, steps } = await replayedBodies('bytes-json', [json('chat/tool-call.json'), json('responses/final-answer.json')], async (client) => [
      await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] }).asResponse(),
      await client.responses.create({ model: 'gpt-4.1', input: 'Weather in Paris?' }).asResponse(),
    ])
    expect(steps).toHaveLength(2)
    expect(texts).toEqual(steps.map((step) => JSON.stringify(step.response.body)))
    // The steady ids the recording wrote are what the agent gets back.
    expect(texts[0]).toMatch(/^\{"id":"chatcmpl-\d{6}-1",/)
  })

  it('a streamed chat completion (SSE): each recorded event, in order, with its data as compact JSON text', async () => {
    const { texts, steps } = await replayedBodies('bytes-sse', [sse('chat/tool-call.sse')], async (client) => [
      await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION], stream: true }).asResponse(),
    ])
    expect(steps[0]!.response.events!.length).toBeGreaterThan(2)
    expect(texts).toEqual([eventStreamText(steps[0]!.response.events!)])
  })
})
