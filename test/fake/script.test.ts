import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { scriptedFetch, scriptedLanguageModel, UnsupportedRequestError, type Script } from '../../src/entries/fake.js'
import { scriptedChatModel } from '../../src/entries/fake-langchain.js'

const SHAPES = 'A step is { text }, { toolCalls: [{ name, arguments }] }, { error: { status, message } }, or a function returning one.'
const userSays = (text: string) => ({ prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text }] }] })

describe('a script', () => {
  it.each([
    [[{ txt: 'Hi.' }], 'step 1 of the script is not a step: it has the key "txt", which is not one of text, toolCalls, usage, error'],
    [
      [{ text: 'Hi.' }, { toolCalls: [{ name: 'lookup_order', args: {} }] }],
      'step 2 of the script is not a step: its toolCalls[0] has the key "args", which is not one of name, arguments, id',
    ],
    [[{ toolCalls: [{ name: '' }] }], 'step 1 of the script is not a step: its toolCalls[0].name is "", not a tool name'],
    [
      [{ toolCalls: [{ name: 'lookup_order', arguments: '{"order_id":"42"}' }] }],
      'step 1 of the script is not a step: its toolCalls[0].arguments is "{\\"order_id\\":\\"42\\"}", not an object',
    ],
    [
      [{ error: { status: 200, message: 'OK' } }],
      'step 1 of the script is not a step: its error.status is 200, not an HTTP error status (an integer from 400 to 599)',
    ],
    [[{ error: { status: 429 } }], 'step 1 of the script is not a step: its error.message is undefined, not a string'],
    [
      [{ error: { status: 429, message: 'Slow down.' }, text: 'Hi.' }],
      'step 1 of the script is not a step: an error step has only the key "error", and this one has "error", "text"',
    ],
    [[{ text: 'Hi.', usage: { inputTokens: -1 } }], 'step 1 of the script is not a step: its usage.inputTokens is -1, not a whole number of tokens'],
    [[{}], 'step 1 of the script is not a step: it has neither text nor toolCalls'],
    [[null], 'step 1 of the script is not a step: it is null'],
    [['Hi.'], 'step 1 of the script is not a step: it is "Hi."'],
  ])('refuses %j where it is written, naming the step and what is wrong', (script, problem) => {
    expect(() => scriptedFetch(script as unknown as Script)).toThrow(new TypeError(`scriptedFetch: ${problem}. ${SHAPES}`))
  })

  it('must be an array', () => {
    expect(() => scriptedLanguageModel('Hi.' as unknown as Script)).toThrow(
      new TypeError('scriptedLanguageModel "scripted-model": the script must be an array of steps, got string.'),
    )
    expect(() => scriptedChatModel({} as unknown as Script, { model: 'm' })).toThrow(
      new TypeError('scriptedChatModel "m": the script must be an array of steps, got object.'),
    )
  })

  it('rejects the call whose function step returns something that is not a step, naming the step', async () => {
    const model = scriptedLanguageModel([() => ({ txt: 'Hi.' }) as never])
    await expect(model.doGenerate(userSays('Hi'))).rejects.toThrow(
      new TypeError(
        `scriptedLanguageModel "scripted-model": the function at step 1 of the script returned something that is not a step: it has the key "txt", which is not one of text, toolCalls, usage, error. ${SHAPES}`,
      ),
    )
  })

  it("hands the caller a function step's own error unchanged, not retried by the SDK", async () => {
    const broken = new RangeError('no fixture for this order')
    const fetch = scriptedFetch([
      () => {
        throw broken
      },
    ])
    const openai = new OpenAI({ fetch, apiKey: 'sk-test', maxRetries: 2 })
    await expect(openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toBe(broken)
    expect(fetch.requests).toHaveLength(1)
  })

  it('awaits an async function step, which gets the call number and the request', async () => {
    const model = scriptedLanguageModel([{ text: 'One.' }, async (request) => ({ text: `Call ${request.call}, after "${request.messages.at(-1)?.content}".` })])
    await model.doGenerate(userSays('first'))
    const { content } = await model.doGenerate(userSays('second'))
    expect(content).toEqual([{ type: 'text', text: 'Call 2, after "second".' }])
  })

  it('gives concurrent calls their steps in the order the calls were made', async () => {
    const model = scriptedLanguageModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }])
    const answers = await Promise.all(['a', 'b', 'c'].map(async (text) => (await model.doGenerate(userSays(text))).content))
    expect(answers).toEqual([[{ type: 'text', text: 'one' }], [{ type: 'text', text: 'two' }], [{ type: 'text', text: 'three' }]])
    expect(model.requests.map((request) => [request.call, request.messages[0]?.content])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ])
  })
})

describe('token usage of a scripted call', () => {
  it('is one token per four characters of the request and of the answer, rounded up, unless the step gives it', async () => {
    // 12 characters of messages + lookup_order (12) + "Look it up." (11) + its JSON schema (17) = 52 → 13 tokens in;
    // "On it." (6) + lookup_order (12) + {"order_id":"42"} (17) = 35 → 9 tokens out.
    const model = scriptedLanguageModel([
      { text: 'On it.', toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] },
      { text: 'Hi.', usage: { outputTokens: 40 } },
    ])
    const tools = [{ type: 'function' as const, name: 'lookup_order', description: 'Look it up.', inputSchema: { type: 'object' as const } }]
    const first = await model.doGenerate({ ...userSays('Where is 42?'), tools })
    const second = await model.doGenerate(userSays(''))

    expect([first.usage.inputTokens.total, first.usage.outputTokens.total]).toEqual([13, 9])
    expect([second.usage.inputTokens.total, second.usage.outputTokens.total]).toEqual([1, 40])
  })

  it('is the same in every run of the same conversation', async () => {
    const run = async () => {
      const openai = new OpenAI({ fetch: scriptedFetch([{ text: 'It is 18°C in Paris.' }]), apiKey: 'sk-test' })
      return (await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather in Paris?' }] })).usage
    }
    const [a, b] = [await run(), await run()]
    expect(a).toEqual(b)
    expect([a?.prompt_tokens, a?.completion_tokens]).toEqual([5, 5])
  })
})

describe('scriptedFetch: requests it does not script', () => {
  it('fails a request that is not a model call with UnsupportedRequestError, using no step', async () => {
    const fetch = scriptedFetch([{ text: 'Hi.' }])
    const openai = new OpenAI({ fetch, apiKey: 'sk-test', maxRetries: 2 })
    const error = await openai.models.list().catch((e: unknown) => e)

    expect(error).toBeInstanceOf(UnsupportedRequestError)
    expect((error as Error).message).toBe(
      'scriptedFetch cannot answer GET https://api.openai.com/v1/models: it is not a model call. It answers POST requests to .../chat/completions ' +
        'and .../responses (OpenAI) and .../messages (Anthropic), with a JSON body; give other requests a fetch of their own.',
    )
    expect(fetch.remaining).toBe(1)
  })

  it('refuses a request whose signal has already fired, as fetch does, and ends a stream whose reader aborts it', async () => {
    const fetch = scriptedFetch([{ text: 'A long answer in many words.' }])
    const openai = new OpenAI({ fetch, apiKey: 'sk-test', maxRetries: 0 })
    const aborted = AbortSignal.abort()
    await expect(openai.chat.completions.create({ model: 'gpt-4o', messages: [] }, { signal: aborted })).rejects.toBeInstanceOf(OpenAI.APIUserAbortError)
    expect(fetch.remaining).toBe(1)

    const stream = await openai.chat.completions.create({ model: 'gpt-4o', messages: [], stream: true })
    const seen: string[] = []
    for await (const chunk of stream) {
      seen.push(chunk.choices[0]?.delta.content ?? '')
      if (seen.length === 2) stream.controller.abort()
    }
    expect(seen).toEqual(['', 'A '])
  })
})
