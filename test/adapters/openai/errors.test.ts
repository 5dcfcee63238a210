import { APIConnectionError, BadRequestError, InternalServerError } from 'openai'
import { describe, expect, it } from 'vitest'
import { resetAdapterWarnings } from '../../../src/adapter-support/index.js'
import { session } from '../../../src/entries/index.js'
import { inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { captureWarnings } from '../../helpers/warnings.js'
import { json, openaiClient } from './helpers.js'
import { internals } from '../../../src/session/internals.js'

const QUESTION = { role: 'user' as const, content: 'What is the weather in Paris?' }

/** The error a call rejects with, with the fields that make it what it is. */
async function rejection(promise: Promise<unknown>): Promise<{ error: unknown; fields: unknown }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  const { status, error: body, code, type, message } = error as InternalServerError
  return { error, fields: { class: (error as Error).constructor.name, status, body, code, type, message } }
}

describe('instrumentOpenAI: API errors', () => {
  it.each([
    ['a 400', 'error-400.json', 400, BadRequestError, '400 The model `gpt-5-turbo` does not exist or you do not have access to it.'],
    ['a 500', 'error-500.json', 500, InternalServerError, '500 The server had an error while processing your request. Sorry about that!'],
  ])('rethrows %s unchanged and records it on the turn', async (_label, fixture, status, ErrorClass, message) => {
    const plainServer = await startCannedServer(inOrder(json(fixture, status)))
    const server = await startCannedServer(inOrder(json(fixture, status)))
    const plain = await rejection(openaiClient(plainServer, { instrument: false }).chat.completions.create({ model: 'gpt-5-turbo', messages: [QUESTION] }))
    const client = openaiClient(server)

    const s = await session('api-error', { save: false }, async () => {
      const { error, fields } = await rejection(client.chat.completions.create({ model: 'gpt-5-turbo', messages: [QUESTION] }))
      expect(error).toBeInstanceOf(ErrorClass)
      return fields
    })

    expect(s.output).toEqual(plain.fields)
    expect(s.trace.turns).toEqual([
      {
        index: 0,
        llm_call: {
          messages: [QUESTION],
          response_text: null,
          tool_calls: [],
          model: 'gpt-5-turbo',
          provider: 'openai',
          token_usage: null,
          timestamp: expect.any(Number),
          latency_ms: expect.any(Number),
          error: { name: ErrorClass.name, message, stack: expect.any(String) },
        },
        tool_results: [],
        duration_ms: expect.any(Number),
      },
    ])
  })

  it('records a request that never reached a server as an APIConnectionError', async () => {
    const server = await startCannedServer(inOrder())
    await server.close()
    const client = openaiClient(server)

    const s = await session('connection-error', { save: false }, async () => {
      await expect(client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] })).rejects.toBeInstanceOf(APIConnectionError)
    })

    expect(s.trace.turns[0]!.llm_call.error).toEqual({ name: 'APIConnectionError', message: 'Connection error.', stack: expect.any(String) })
  })

  it('records a failed Responses API call the same way', async () => {
    const server = await startCannedServer(inOrder(json('error-500.json', 500)))
    const client = openaiClient(server)

    const s = await session('responses-error', { save: false }, async () => {
      await expect(client.responses.create({ model: 'gpt-4.1', input: 'Weather in Paris?' })).rejects.toBeInstanceOf(InternalServerError)
    })

    expect(s.trace.turns[0]!.llm_call.error).toEqual({
      name: 'InternalServerError',
      message: '500 The server had an error while processing your request. Sorry about that!',
      stack: expect.any(String),
    })
  })

  it('keeps the call working when recording fails, and warns once', async () => {
    resetAdapterWarnings()
    const server = await startCannedServer(inOrder(json('chat/final-answer.json'), json('chat/final-answer.json')))
    const client = openaiClient(server)
    const warnings = captureWarnings()

    const s = await session('record-failure', { save: false }, async (s) => {
      s[internals].recordModelCall = () => {
        throw new Error('the recorder is broken')
      }
      const first = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] })
      const second = await client.chat.completions.create({ model: 'gpt-4o', messages: [QUESTION] })
      return [first.choices[0]!.message.content, second.choices[0]!.message.content]
    })

    expect(s.output).toEqual(['It is 18°C and sunny in Paris.', 'It is 18°C and sunny in Paris.'])
    expect(await warnings.seen()).toEqual([
      {
        code: 'REAGENT_ADAPTER',
        message:
          'reagent-flow: reagent-flow/openai: could not record a chat.completions.create call (the recorder is broken). ' +
          'The call itself went on; further recording failures of this adapter are not reported. Please report this with the SDK version.',
      },
    ])
  })
})
