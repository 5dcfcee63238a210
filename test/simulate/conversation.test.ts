import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadTrace, repeat, session, type Session } from '../../src/entries/index.js'
import { conversation, isSimulatedUserError, simulatedUser, type Transcript } from '../../src/entries/simulate.js'
import { tempDir } from '../helpers/temp-dir.js'

/** An agent that records one model call per reply (two for a refund: the lookup, then the answer) and answers by rule. */
function deskAgent(message: string, _transcript: Transcript, { session }: { session: Session }): string {
  if (/order (\d+)/.test(message)) {
    session.logLlmCall({ messages: [{ role: 'user', content: message }], toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] })
    session.logLlmCall({ messages: [{ role: 'user', content: message }], responseText: 'Refunded $19.99 for order 42.' })
    return 'Refunded $19.99 for order 42.'
  }
  session.logLlmCall({ messages: [{ role: 'user', content: message }], responseText: 'Which order is it?' })
  return 'Which order is it?'
}

describe('conversation() with a scripted user', () => {
  it('runs exchange after exchange until the user says it is done, and keeps who said what, with the turns of each reply, on the trace', async () => {
    const dir = tempDir()
    const user = simulatedUser({
      goal: 'Get a refund for order 42',
      opening: 'I want my money back.',
      model: (transcript) => (transcript.length === 2 ? "It's order 42." : { done: true, reason: 'refunded', goalMet: true }),
    })
    const conv = await conversation('desk', { user, maxTurns: 5, traceDir: dir }, deskAgent)
    expect(conv.output).toEqual({
      endedBy: 'user',
      goalMet: true,
      reason: 'refunded',
      exchanges: 2,
      transcript: [
        { role: 'user', content: 'I want my money back.', exchange: 1 },
        { role: 'assistant', content: 'Which order is it?', exchange: 1 },
        { role: 'user', content: "It's order 42.", exchange: 2 },
        { role: 'assistant', content: 'Refunded $19.99 for order 42.', exchange: 2 },
      ],
    })
    const onDisk = loadTrace(conv.path!)
    expect(onDisk.conversation).toEqual({
      goal: 'Get a refund for order 42',
      persona: null,
      ended_by: 'user',
      goal_met: true,
      reason: 'refunded',
      max_turns: 5,
      exchanges: 2,
      user_trace_id: null,
      messages: [
        { role: 'user', content: 'I want my money back.', exchange: 1 },
        { role: 'assistant', content: 'Which order is it?', exchange: 1, turns: [0] },
        { role: 'user', content: "It's order 42.", exchange: 2 },
        { role: 'assistant', content: 'Refunded $19.99 for order 42.', exchange: 2, turns: [1, 2] },
      ],
    })
    // A scripted user asks no model: no session of its own.
    expect(conv.children).toEqual([])
    expect(onDisk.turns).toHaveLength(3)
  })

  it('says a list of messages in order, then ends the conversation (the goal unsaid)', async () => {
    const said: string[] = []
    const conv = await conversation('list', { user: simulatedUser({ model: ['hello', 'order 42'] }), save: false }, (message) => {
      said.push(message)
      return `ok: ${message}`
    })
    expect(said).toEqual(['hello', 'order 42'])
    expect(conv.output).toMatchObject({ endedBy: 'user', goalMet: null, reason: "the script's 2 messages are all said", exchanges: 2 })
  })

  it('stops at maxTurns when the user is never done, and says so', async () => {
    const conv = await conversation('endless', { user: simulatedUser({ model: () => 'and another thing' }), maxTurns: 3, save: false }, () => 'noted')
    expect(conv.output).toMatchObject({ endedBy: 'max_turns', goalMet: null, reason: 'reached maxTurns (3) before the user was done', exchanges: 3 })
    expect(conv.trace.conversation?.messages).toHaveLength(6)
  })

  it('asks the user once more after the last allowed exchange, so a goal met in exactly maxTurns ends as the user said', async () => {
    const user = simulatedUser({ model: (transcript) => (transcript.length < 4 ? 'next' : { done: true, reason: 'all set', goalMet: true }) })
    const conv = await conversation('exact', { user, maxTurns: 2, save: false }, () => 'done that')
    expect(conv.output).toMatchObject({ endedBy: 'user', goalMet: true, exchanges: 2 })
  })

  it("ends when the user's stop condition says so, with its reason", async () => {
    const user = simulatedUser({
      model: () => 'more',
      stop: (transcript) =>
        transcript.some((m) => m.role === 'assistant' && m.content.includes('refund')) ? { reason: 'the agent offered a refund', goalMet: true } : false,
    })
    let n = 0
    const conv = await conversation('stopped', { user, save: false }, () => (++n === 2 ? 'I can refund that' : 'hm'))
    expect(conv.output).toMatchObject({ endedBy: 'stop', goalMet: true, reason: 'the agent offered a refund', exchanges: 2 })
  })

  it('takes the SDK objects agents return as replies: completions, messages, results, LangGraph states', async () => {
    const replies: unknown[] = [
      { object: 'chat.completion', choices: [{ message: { role: 'assistant', content: 'from a chat completion' } }] },
      { role: 'assistant', content: 'from a chat message' },
      { object: 'response', output_text: 'from a Responses API response' },
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'text', text: 'from an Anthropic ' },
          { type: 'tool_use', id: 't', name: 'x', input: {} },
          { type: 'text', text: 'message' },
        ],
      },
      { text: 'from generateText', steps: [] },
      { messages: [{ content: 'hi' }, { content: [{ type: 'text', text: 'from a LangGraph state' }] }] },
    ]
    const conv = await conversation(
      'kinds',
      { user: simulatedUser({ model: () => 'go on' }), maxTurns: replies.length, save: false },
      (_m, _t, { exchange }) => replies[exchange - 1],
    )
    expect(conv.output.transcript.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([
      'from a chat completion',
      'from a chat message',
      'from a Responses API response',
      'from an Anthropic message',
      'from generateText',
      'from a LangGraph state',
    ])
  })
})

describe('conversation(session, ...) in a session already open', () => {
  it('runs in each run of repeat(), each run holding its own conversation', async () => {
    const user = simulatedUser({ model: (transcript) => (transcript.length === 0 ? 'hi' : { done: true, reason: 'greeted', goalMet: true }) })
    const runs = await repeat(3, 'greeting', { save: false }, (s) => conversation(s, { user }, (_m, _t, { exchange }) => `hello ${exchange}`))
    expect(runs.runs.map((run) => run.output)).toEqual(
      Array.from({ length: 3 }, () => ({
        endedBy: 'user',
        goalMet: true,
        reason: 'greeted',
        exchanges: 1,
        transcript: [
          { role: 'user', content: 'hi', exchange: 1 },
          { role: 'assistant', content: 'hello 1', exchange: 1 },
        ],
      })),
    )
    expect(runs.runs.map((run) => run.trace.conversation?.ended_by)).toEqual(['user', 'user', 'user'])
  })

  it('holds one conversation per session, and needs the session open', async () => {
    const user = simulatedUser({ model: ['hi'] })
    let open: Session | undefined
    await session('twice', { save: false }, async (s) => {
      open = s
      await conversation(s, { user }, () => 'hello')
      await expect(conversation(s, { user }, () => 'hello')).rejects.toThrow(
        'conversation(): the session "twice" already holds a conversation; a session records one.',
      )
      await expect(conversation(s, { user, traceDir: 'x' } as never, () => 'hello')).rejects.toThrow(
        'conversation(session, ...): "traceDir" is an option of a session; this session is already open. Options here: user, maxTurns.',
      )
    })
    await expect(conversation(open!, { user }, () => 'hello')).rejects.toThrow(
      'conversation(): the session "twice" is closed; run the conversation while it is open.',
    )
  })
})

describe('conversation() when something goes wrong', () => {
  it('fails with a TypeError naming the exchange when the agent returns no reply it can read, the transcript kept on the trace', async () => {
    const dir = tempDir()
    const run = conversation('bad-reply', { user: simulatedUser({ model: () => 'hi' }), traceDir: dir }, (_m, _t, { exchange }) =>
      exchange === 2 ? 42 : 'hello',
    )
    await expect(run).rejects.toThrow(
      new TypeError(
        'conversation "bad-reply", exchange 2: the agent must return its reply as a string, or an SDK reply: an OpenAI chat completion or its message, a Responses API response, an Anthropic message, an AI SDK generateText result, a LangChain message or a LangGraph state with messages; got 42 (number).',
      ),
    )
    const trace = loadTrace(`${dir}/bad-reply.trace.json`)
    expect(trace.status).toBe('failed')
    expect(trace.conversation).toMatchObject({ ended_by: 'error', exchanges: 2, messages: [{ content: 'hi' }, { content: 'hello' }, { content: 'hi' }] })
  })

  it('fails with a SimulatedUserError naming the exchange when a scripted user returns nothing it can say', async () => {
    const dir = tempDir()
    const user = simulatedUser({ model: (transcript) => (transcript.length === 0 ? 'hi' : '') })
    const error: unknown = await conversation('mute', { user, traceDir: dir }, () => 'hello').catch((e: unknown) => e)
    expect(isSimulatedUserError(error)).toBe(true)
    expect((error as Error).message).toBe(
      'conversation "mute", exchange 2: the simulated user could not give its message: the scripted user must return its next message (a non-empty string) or { done: true, reason: string, goalMet?: boolean }, got "" (string). The conversation so far is on its trace (conversation); fix the script.',
    )
    expect(loadTrace(`${dir}/mute.trace.json`).conversation).toMatchObject({ ended_by: 'error', exchanges: 1, reason: (error as Error).message })
  })

  it("rethrows the agent's own error unchanged, and the trace says the conversation ended in it", async () => {
    const dir = tempDir()
    const boom = new RangeError('the agent fell over')
    await expect(conversation('agent-throws', { user: simulatedUser({ model: () => 'hi' }), traceDir: dir }, () => Promise.reject(boom))).rejects.toBe(boom)
    expect(loadTrace(`${dir}/agent-throws.trace.json`).conversation).toMatchObject({ ended_by: 'error', reason: 'the agent fell over', exchanges: 1 })
  })

  it('names what is wrong with its options', async () => {
    const agent = (): string => 'x'
    await expect(conversation('x', { user: {} as never }, agent)).rejects.toThrow(
      'conversation("x", ...): options.user must be a simulated user: { user: simulatedUser({ goal, model }) }, got an object with no keys.',
    )
    await expect(conversation('x', { user: simulatedUser({ model: ['hi'] }), maxTurns: 0 }, agent)).rejects.toThrow(
      'conversation("x", ...): options.maxTurns must be a whole number of at least 1 (the most exchanges), got 0 (number).',
    )
    await expect(conversation('x', { user: simulatedUser({ model: ['hi'] }), maxturns: 3 } as never, agent)).rejects.toThrow(
      'Unknown conversation() option "maxturns".',
    )
    expect(() => simulatedUser({ model: { client: {}, model: 'gpt-4o-mini' } })).toThrow(
      "simulatedUser(): a simulated user played by a model needs a goal: { goal: 'Get a refund for order 42', model }.",
    )
    expect(() => simulatedUser({ model: ['hi'], systemPrompt: 'x' })).toThrow(
      'simulatedUser(): systemPrompt is for a model; a scripted user (a function or a list of messages) has none.',
    )
  })

  it('keeps a secret said in the conversation out of the file, as every other field', async () => {
    const dir = tempDir()
    const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD'
    await conversation('secret', { user: simulatedUser({ model: [`my key is ${key}`] }), traceDir: dir }, (message) => `you said ${message}`)
    const text = readFileSync(`${dir}/secret.trace.json`, 'utf8')
    expect(text).not.toContain(key)
    expect(loadTrace(`${dir}/secret.trace.json`).conversation?.messages.map((m) => m.content)).toEqual([
      'my key is [REDACTED]',
      'you said my key is [REDACTED]',
    ])
  })
})
