import Anthropic from '@anthropic-ai/sdk'
import { createOpenAI } from '@ai-sdk/openai'
import { ChatOpenAI } from '@langchain/openai'
import { wrapLanguageModel } from 'ai'
import OpenAI, { APIError } from 'openai'
import { describe, expect, it } from 'vitest'
import { reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { scriptedLanguageModel } from '../../src/entries/fake.js'
import { scriptedChatModel } from '../../src/entries/fake-langchain.js'
import { session } from '../../src/entries/index.js'
import { askModel, checkModel, modelLabel } from '../../src/simulate/ask-model.js'
import type { ModelRequest } from '../../src/simulate/model-types.js'
import { inOrder, startCannedServer, type CannedServer } from '../helpers/canned-server.js'
import { anthropicMessage, completion, recordThenReplay } from './model-kit.js'

const END = {
  name: 'end_conversation',
  description: 'End the conversation.',
  parameters: { type: 'object', properties: { goal_met: { type: 'boolean' }, reason: { type: 'string' } }, required: ['goal_met', 'reason'] },
}

const REQUEST: ModelRequest = {
  system: 'You are a customer who wants a refund.',
  messages: [
    { role: 'assistant', content: 'I want my money back.' },
    { role: 'user', content: 'Which order?' },
  ],
  tools: [END],
  toolChoice: 'required',
}

const ANSWER = { text: null, toolCalls: [{ name: 'end_conversation', arguments: { goal_met: true, reason: 'refunded' } }] }

const openaiMessages = [
  { role: 'system', content: 'You are a customer who wants a refund.' },
  { role: 'assistant', content: 'I want my money back.' },
  { role: 'user', content: 'Which order?' },
]
const openaiTools = [{ type: 'function', function: END }]
// The scripted models' view of the chat: an assistant message lists the tools it called.
const scriptMessages = openaiMessages.map((message) => (message.role === 'assistant' ? { ...message, toolCalls: [] } : message))

function openai(server: CannedServer): OpenAI {
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 0 })
}

function endCall(): ReturnType<typeof completion> {
  return completion({ tool: 'end_conversation', args: '{"goal_met":true,"reason":"refunded"}' })
}

describe('askModel with an OpenAI client', () => {
  it('sends the system prompt, the chat and the tools as a chat completion, parses the call, records it and replays it offline', async () => {
    const server = await startCannedServer(inOrder(endCall()))
    const model = { client: openai(server), model: 'gpt-4o-mini', temperature: 0 }
    const { recorded, replayed } = await recordThenReplay('ask-openai', server, () => askModel('simulatedUser()', model, REQUEST))

    expect(server.requests.map((request) => request.body)).toEqual([
      { model: 'gpt-4o-mini', messages: openaiMessages, tools: openaiTools, tool_choice: 'required', temperature: 0 },
    ])
    expect(recorded.output).toEqual(ANSWER)
    expect(replayed.output).toEqual(ANSWER)
    expect(recorded.trace.turns[0]!.llm_call.tool_calls.map((call) => [call.name, call.arguments])).toEqual([
      ['end_conversation', { goal_met: true, reason: 'refunded' }],
    ])
  })

  it('sends no tools and no tool_choice when the request has none, and answers the text', async () => {
    const server = await startCannedServer(inOrder(completion({ text: 'Order 42.' })))
    const answer = await askModel('simulatedUser()', { client: openai(server), model: 'gpt-4o-mini', maxTokens: 200 }, { system: 'Be brief.', messages: [] })
    expect(answer).toEqual({ text: 'Order 42.', toolCalls: [] })
    expect(server.requests[0]!.body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }], max_completion_tokens: 200 })
  })

  it('keeps arguments that are not a JSON object as the model wrote them', async () => {
    const server = await startCannedServer(inOrder(completion({ tool: 'end_conversation', args: '{"goal_met": tru' })))
    const answer = await askModel('simulatedUser()', { client: openai(server), model: 'gpt-4o-mini' }, REQUEST)
    expect(answer).toEqual({ text: null, toolCalls: [{ name: 'end_conversation', arguments: {}, rawArguments: '{"goal_met": tru' }] })
  })

  it("lets the SDK's error through unchanged", async () => {
    const server = await startCannedServer(inOrder({ status: 500, json: { error: { message: 'upstream down' } } }))
    const error = await askModel('simulatedUser()', { client: openai(server), model: 'gpt-4o-mini' }, REQUEST).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(APIError)
    expect((error as APIError).status).toBe(500)
  })
})

describe('askModel with an Anthropic client', () => {
  it('sends the system prompt apart, tool_choice any for a required tool, reads the tool_use, records it and replays it offline', async () => {
    const server = await startCannedServer(inOrder(anthropicMessage('Done.', { name: 'end_conversation', input: { goal_met: true, reason: 'refunded' } })))
    const client = new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-test-key', maxRetries: 0 })
    const { recorded, replayed } = await recordThenReplay('ask-anthropic', server, () => askModel('judge()', { client, model: 'claude-haiku-4-5' }, REQUEST))

    expect(server.requests.map((request) => request.body)).toEqual([
      {
        model: 'claude-haiku-4-5',
        max_tokens: 1024,
        system: 'You are a customer who wants a refund.',
        // The Messages API wants the user first: a chat that starts with the model's own line gets a cue before it.
        messages: [
          { role: 'user', content: '(The conversation starts now: write the first message.)' },
          { role: 'assistant', content: 'I want my money back.' },
          { role: 'user', content: 'Which order?' },
        ],
        tools: [{ name: 'end_conversation', description: 'End the conversation.', input_schema: END.parameters }],
        tool_choice: { type: 'any' },
      },
    ])
    expect(recorded.output).toEqual({ ...ANSWER, text: 'Done.' })
    expect(replayed.output).toEqual({ ...ANSWER, text: 'Done.' })
  })
})

describe('askModel with an AI SDK LanguageModel', () => {
  it('calls doGenerate with the V3 prompt and function tools, recorded without reagentMiddleware, and replays it offline', async () => {
    const server = await startCannedServer(inOrder(endCall()))
    const model = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key' }).chat('gpt-4o-mini')
    const { recorded, replayed } = await recordThenReplay('ask-ai-sdk', server, () => askModel('simulatedUser()', model, REQUEST))

    expect(server.requests.map((request) => request.body)).toEqual([
      {
        model: 'gpt-4o-mini',
        messages: openaiMessages,
        tools: openaiTools,
        tool_choice: 'required',
      },
    ])
    expect(recorded.output).toEqual(ANSWER)
    expect(replayed.output).toEqual(ANSWER)
    expect(recorded.trace.turns.map((turn) => turn.llm_call.provider)).toEqual(['openai.chat'])
  })

  it('records a model wrapped with reagentMiddleware once', async () => {
    const server = await startCannedServer(inOrder(endCall()))
    const model = wrapLanguageModel({
      model: createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key' }).chat('gpt-4o-mini'),
      middleware: reagentMiddleware(),
    })
    const s = await session('ask-ai-sdk-wrapped', { save: false }, () => askModel('simulatedUser()', model, REQUEST))
    expect(s.output).toEqual(ANSWER)
    expect(s.trace.turns).toHaveLength(1)
  })

  it('plays a scriptedLanguageModel, which sees the prompt and tools as a provider would', async () => {
    const model = scriptedLanguageModel([
      { text: 'Order 42, please.' },
      { toolCalls: [{ name: 'end_conversation', arguments: { goal_met: true, reason: 'refunded' } }] },
    ])
    const s = await session('ask-scripted-ai-sdk', { save: false }, async () => [
      await askModel('simulatedUser()', model, { ...REQUEST, tools: [], toolChoice: 'auto' }),
      await askModel('simulatedUser()', model, REQUEST),
    ])
    expect(s.output).toEqual([{ text: 'Order 42, please.', toolCalls: [] }, ANSWER])
    expect(model.requests.map((request) => [request.messages, request.tools])).toEqual([
      [scriptMessages, []],
      [scriptMessages, [END]],
    ])
    expect(s.trace.turns.map((turn) => turn.llm_call.response_text)).toEqual(['Order 42, please.', null])
  })
})

describe('askModel with a LangChain chat model', () => {
  it('binds the tools (required), sends the chat through ChatOpenAI, records it through the LangChain adapter and replays it offline', async () => {
    const server = await startCannedServer(inOrder(endCall()))
    const model = new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test-key', maxRetries: 0, configuration: { baseURL: `${server.url}/v1` } })
    const { recorded, replayed } = await recordThenReplay('ask-langchain', server, () => askModel('simulatedUser()', model, REQUEST))

    const body = server.requests[0]!.body as Record<string, unknown>
    expect([body.model, body.messages, body.tools, body.tool_choice]).toEqual(['gpt-4o-mini', openaiMessages, openaiTools, 'required'])
    expect(recorded.output).toEqual(ANSWER)
    expect(replayed.output).toEqual(ANSWER)
    expect(recorded.trace.turns).toHaveLength(1)
  })

  it('plays a scriptedChatModel, which sees the system prompt, the roles and the bound tools', async () => {
    const model = scriptedChatModel([{ toolCalls: [{ name: 'end_conversation', arguments: { goal_met: false, reason: 'gave up' } }] }])
    const s = await session('ask-scripted-langchain', { save: false }, () => askModel('simulatedUser()', model, REQUEST))
    expect(s.output).toEqual({ text: null, toolCalls: [{ name: 'end_conversation', arguments: { goal_met: false, reason: 'gave up' } }] })
    expect(model.requests.map((request) => [request.messages, request.tools])).toEqual([[scriptMessages, [END]]])
    expect(s.trace.turns).toHaveLength(1)
  })
})

describe('checkModel', () => {
  const accepted =
    'model must be one of: { client, model } (an OpenAI or Anthropic client and a model name, e.g. { client: new OpenAI(), model: "gpt-4o-mini" }), ' +
    'an AI SDK LanguageModel (e.g. openai("gpt-4o-mini")), a LangChain chat model (e.g. new ChatOpenAI({ model: "gpt-4o-mini" })), ' +
    'or a scripted model from reagent-flow/fake (scriptedLanguageModel, scriptedChatModel)'
  const client = new OpenAI({ apiKey: 'sk-test-key' })

  it.each([
    ['a bare client', client, `; got a OpenAI (a client needs the model to ask: pass { client, model: "gpt-4o-mini" }).`],
    ['a model name alone', 'gpt-4o-mini', `; got the string "gpt-4o-mini" (a model name alone names no client: pass { client, model: "gpt-4o-mini" }).`],
    ['a client without its model', { client }, `; got an object ({ client, model } needs the model's name, e.g. model: "gpt-4o-mini").`],
    [
      'something else as the client',
      { client: {}, model: 'gpt-4o' },
      `; got an object (its client is an object, neither an OpenAI client (new OpenAI()) nor an Anthropic one (new Anthropic())).`,
    ],
    ['undefined', undefined, '; got undefined.'],
  ])('names the asker, the kinds it accepts and the fix for %s', (_case, value, got) => {
    expect(() => checkModel('simulatedUser()', value)).toThrow(new TypeError(`simulatedUser(): ${accepted}${got}`))
  })

  it('rejects an AI SDK model of an older specification', () => {
    expect(() => checkModel('judge()', { specificationVersion: 'v2', modelId: 'gpt-4o', doGenerate: () => undefined })).toThrow(
      new TypeError(`judge(): ${accepted}; got an object (it is an AI SDK model of specification v2; AI SDK 6 models (specification v3) are supported).`),
    )
  })

  it('returns each accepted kind as it was given, and labels it', () => {
    const kinds = [
      { client, model: 'gpt-4o-mini' },
      { client: new Anthropic({ apiKey: 'sk-ant-test-key' }), model: 'claude-haiku-4-5' },
      scriptedLanguageModel([]),
      scriptedChatModel([]),
      new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test-key' }),
    ]
    expect(kinds.map((kind) => checkModel('simulatedUser()', kind))).toEqual(kinds)
    expect(kinds.map((kind) => modelLabel(checkModel('simulatedUser()', kind)))).toEqual([
      'openai:gpt-4o-mini',
      'anthropic:claude-haiku-4-5',
      'scripted:scripted-model',
      'ScriptedChatModel:scripted-chat-model',
      'ChatOpenAI:gpt-4o-mini',
    ])
  })

  it('askModel rejects a wrong model with the same TypeError', async () => {
    await expect(askModel('simulatedUser()', 'gpt-4o' as never, REQUEST)).rejects.toThrow(TypeError)
  })
})
