import { join } from 'node:path'
import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { HumanMessage } from '@langchain/core/messages'
import { ChatOpenAI } from '@langchain/openai'
import { generateText, wrapLanguageModel } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { instrumentAnthropic } from '../../src/entries/anthropic.js'
import { instrumentLangChain } from '../../src/entries/langchain.js'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { session, type Session } from '../../src/entries/index.js'
import { inOrder, startCannedServer, type CannedServer } from '../helpers/canned-server.js'
import { watchSockets } from '../helpers/sockets.js'
import { tempDir } from '../helpers/temp-dir.js'
import { json } from '../adapters/openai/helpers.js'
import { runChatAgent } from '../adapters/openai/weather-agent.js'

instrumentLangChain()

/** The SDK as a user sets it up: its own retries on (2, the default). */
function retryingClient(server: CannedServer): OpenAI {
  return instrumentOpenAI(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key' }))
}

/** A server that has stopped: its port has nothing listening. */
async function stoppedServer(): Promise<CannedServer> {
  const server = await startCannedServer(inOrder())
  await server.close()
  return server
}

/** Records the weather agent asking about Paris; the session's name and folder. */
async function recordParis(name: string): Promise<string> {
  const dir = tempDir('reagent-unreachable-')
  const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
  await session(name, { traceDir: dir, replay: 'record' }, () => runChatAgent(retryingClient(server), 'What is the weather in Paris?'))
  await server.close()
  return dir
}

const REACH =
  "Recording a call needs the model reachable: run again where it is, or use replay: 'replay' (REAGENT_REPLAY=replay) to fail at once on calls the recording lacks."

function refused(server: CannedServer): string {
  return `connect ECONNREFUSED ${server.url.slice('http://'.length)}`
}

async function failure(run: Promise<Session<unknown>>): Promise<Error> {
  return run.then(
    () => {
      throw new Error('the session did not fail')
    },
    (error: unknown) => error as Error,
  )
}

describe("replay: 'auto' with the model unreachable", () => {
  it('fails a call the recording missed with the miss and its diff, at the first attempt: the SDK never retries it', async () => {
    const dir = await recordParis('weather')
    const offline = await stoppedServer()
    const sockets = watchSockets()
    const error = await failure(
      session('weather', { traceDir: dir, replay: 'auto' }, () => runChatAgent(retryingClient(offline), 'What is the weather in Rome?')),
    )
    expect(sockets.opened()).toBe(1)
    expect(error.name).toBe('ReplayMissError')
    expect(error.message).toBe(
      `session "weather": call 1 (openai POST /chat/completions) has no recorded answer in ${join(dir, 'weather.recording.json')}, ` +
        `and the model could not be reached to record it (${refused(offline)}): ` +
        'the nearest recorded request (call 1 of the recording) differs (- recorded, + this call):\n' +
        '  @@ -6,5 +6,5 @@\n' +
        '       },\n' +
        '       {\n' +
        '  -      "content": "What is the weather in Paris?",\n' +
        '  +      "content": "What is the weather in Rome?",\n' +
        '         "role": "user"\n' +
        '       }\n' +
        `${REACH}`,
    )
  })

  it('says there is no recording when there is none, and leaves any other failure as the SDK raised it', async () => {
    const offline = await stoppedServer()
    const dir = tempDir('reagent-unreachable-')
    const error = await failure(session('fresh', { traceDir: dir, replay: 'auto' }, () => runChatAgent(retryingClient(offline), 'Paris?')))
    expect(error.message).toBe(
      `session "fresh": call 1 (openai POST /chat/completions) has no recorded answer in ${join(dir, 'fresh.recording.json')}, ` +
        `and the model could not be reached to record it (${refused(offline)}): there is no recording. ${REACH}`,
    )

    const failing = await startCannedServer(() => ({ status: 400, json: { error: { message: 'bad request', type: 'invalid_request_error' } } }))
    const http = await failure(session('fresh', { traceDir: dir, replay: 'auto' }, () => runChatAgent(retryingClient(failing), 'Paris?')))
    expect(http).toBeInstanceOf(OpenAI.BadRequestError)
  })

  it('fails the same way at a model layer (the AI SDK middleware), with no retry of the SDK', async () => {
    const offline = await stoppedServer()
    const dir = tempDir('reagent-unreachable-')
    const model = wrapLanguageModel({
      model: createOpenAI({ baseURL: `${offline.url}/v1`, apiKey: 'sk-test-key' }).chat('gpt-4o'),
      middleware: reagentMiddleware(),
    })
    const sockets = watchSockets()
    const error = await failure(session('ai', { traceDir: dir, replay: 'auto' }, () => generateText({ model, prompt: 'Paris?' })))
    expect(sockets.opened()).toBe(1)
    expect(error.message).toBe(
      `session "ai": call 1 (ai-sdk openai.chat doGenerate) has no recorded answer in ${join(dir, 'ai.recording.json')}, ` +
        `and the model could not be reached to record it (${refused(offline)}): there is no recording. ${REACH}`,
    )
  })

  it('fails the same way for Anthropic (at the first attempt) and LangChain (after its model retried)', async () => {
    const offline = await stoppedServer()
    const dir = tempDir('reagent-unreachable-')
    const noRecording = (name: string, endpoint: string): string =>
      `session "${name}": call 1 (${endpoint}) has no recorded answer in ${join(dir, `${name}.recording.json`)}, ` +
      `and the model could not be reached to record it (${refused(offline)}): there is no recording. ${REACH}`
    const anthropic = instrumentAnthropic(new Anthropic({ baseURL: offline.url, apiKey: 'sk-test-key' }))
    const sockets = watchSockets()
    const claude = await failure(
      session('claude', { traceDir: dir, replay: 'auto' }, () =>
        anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'Paris?' }] }),
      ),
    )
    expect(sockets.opened()).toBe(1)
    expect(claude.message).toBe(noRecording('claude', 'anthropic POST /v1/messages'))

    const model = new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test-key', maxRetries: 0, configuration: { baseURL: `${offline.url}/v1` } })
    const chain = await failure(session('chain', { traceDir: dir, replay: 'auto' }, () => model.invoke([new HumanMessage('Paris?')])))
    expect(chain.message).toBe(noRecording('chain', 'langchain ChatOpenAI _generate'))
  })
})
