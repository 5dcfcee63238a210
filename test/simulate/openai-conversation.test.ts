import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { isBudgetExceededError, isReplayMissError, loadTrace, type Trace } from '../../src/entries/index.js'
import { conversation, isSimulatedUserError, simulatedUser, type ConversationRecord } from '../../src/entries/simulate.js'
import { startCannedServer, type Handler } from '../helpers/canned-server.js'
import { watchSockets } from '../helpers/sockets.js'
import { tempDir } from '../helpers/temp-dir.js'
import { deskClient, supportAgent, supportDesk } from './support-desk.js'

const GOAL = 'Get a refund for order 42'

/** Records the support conversation against the canned server (agent and user on one OpenAI client), then stops the server. */
async function recorded(dir: string, handler: Handler = supportDesk()) {
  const server = await startCannedServer(handler)
  const client = deskClient(server)
  const user = simulatedUser({ goal: GOAL, persona: 'Polite; gives the order number when asked', model: { client, model: 'gpt-4o-mini' } })
  const conv = await conversation('support', { user, maxTurns: 4, traceDir: dir, replay: 'record' }, supportAgent(client))
  await server.close()
  return { conv, server, client }
}

function files(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((file) => !file.startsWith('.'))
      .map((file) => [file, readFileSync(join(dir, file), 'utf8')]),
  )
}

const TRANSCRIPT: ConversationRecord['messages'] = [
  { role: 'user', content: "Hi, I'd like a refund for my order.", exchange: 1 },
  { role: 'assistant', content: 'I can help with that. What is your order number?', exchange: 1, turns: [0] },
  { role: 'user', content: "It's order 42.", exchange: 2 },
  { role: 'assistant', content: 'Refunded $19.99 for order 42.', exchange: 2, turns: [1, 2, 3] },
]

describe('a support conversation on the OpenAI SDK, the canned server playing both the agent and the user', () => {
  it("records the agent's calls in its trace and the user's in its own child session, the transcript on the agent's trace", async () => {
    const dir = tempDir()
    const { conv, server } = await recorded(dir)
    expect(conv.output).toMatchObject({ endedBy: 'user', goalMet: true, reason: 'The agent refunded order 42.', exchanges: 2 })
    const agent = loadTrace(conv.path!)
    const userRun = loadTrace(join(dir, 'support___user.trace.json'))
    expect(agent.conversation).toEqual({
      goal: GOAL,
      persona: 'Polite; gives the order number when asked',
      ended_by: 'user',
      goal_met: true,
      reason: 'The agent refunded order 42.',
      max_turns: 4,
      exchanges: 2,
      user_trace_id: userRun.trace_id,
      messages: TRANSCRIPT,
    })
    // Four agent calls in the agent's trace, three user calls (two messages and the end) in the user's.
    expect(agent.turns.map((turn) => turn.llm_call.tool_calls.map((call) => call.name))).toEqual([[], ['lookup_order'], ['issue_refund'], []])
    expect(userRun).toMatchObject({
      name: 'support > user',
      parent_trace_id: agent.trace_id,
      status: 'completed',
      metadata: { reagent_role: 'user', goal: GOAL, model: 'openai:gpt-4o-mini' },
    })
    expect(userRun.turns.map((turn) => turn.llm_call.response_text ?? turn.llm_call.tool_calls[0]?.name)).toEqual([
      "Hi, I'd like a refund for my order.",
      "It's order 42.",
      'end_conversation',
    ])
    // What the user's model was shown: its own system prompt, the agent's words as the user's, the end tool.
    const lastUserRequest = server.requests.filter((r) => JSON.stringify(r.body).includes('role-playing')).at(-1)!.body as {
      messages: Array<{ role: string; content: string }>
      tools: Array<{ function: { name: string } }>
    }
    expect(lastUserRequest.messages.slice(1)).toEqual([
      { role: 'user', content: 'The conversation begins now. Write your first message to the assistant.' },
      { role: 'assistant', content: "Hi, I'd like a refund for my order." },
      { role: 'user', content: 'I can help with that. What is your order number?' },
      { role: 'assistant', content: "It's order 42." },
      { role: 'user', content: 'Refunded $19.99 for order 42.' },
    ])
    expect(lastUserRequest.messages[0]!.content).toContain(`Your goal: ${GOAL}`)
    expect(lastUserRequest.tools.map((tool) => tool.function.name)).toEqual(['end_conversation'])
    expect(conv.children.map((child) => child.name)).toEqual(['support > user'])
  })

  it('replays offline, byte for byte: no socket opened, the same conversation, the recordings untouched', async () => {
    const dir = tempDir()
    const { conv: first, client } = await recorded(dir)
    const before = files(dir)
    const sockets = watchSockets()
    const user = simulatedUser({ goal: GOAL, persona: 'Polite; gives the order number when asked', model: { client, model: 'gpt-4o-mini' } })
    const again = await conversation('support', { user, maxTurns: 4, traceDir: dir, replay: 'replay' }, supportAgent(client))
    expect(sockets.opened()).toBe(0)
    expect(again.trace.conversation?.messages).toEqual(first.trace.conversation?.messages)
    expect(again.output).toEqual(first.output)
    const after = files(dir)
    for (const file of Object.keys(before).filter((name) => name.endsWith('.recording.json'))) expect(after[file]).toBe(before[file])
    expect(
      Object.keys(before)
        .filter((name) => name.endsWith('.recording.json'))
        .sort(),
    ).toEqual(['support.recording.json', 'support___user.recording.json'])
  })

  it("replays under CI with replay: 'auto' as with 'replay', recording nothing", async () => {
    const dir = tempDir()
    const { client } = await recorded(dir)
    const before = files(dir)
    vi.stubEnv('CI', 'true')
    const sockets = watchSockets()
    const user = simulatedUser({ goal: GOAL, persona: 'Polite; gives the order number when asked', model: { client, model: 'gpt-4o-mini' } })
    const again = await conversation('support', { user, maxTurns: 4, traceDir: dir, replay: 'auto' }, supportAgent(client))
    vi.unstubAllEnvs()
    expect(sockets.opened()).toBe(0)
    expect(again.output.endedBy).toBe('user')
    expect(files(dir)['support___user.recording.json']).toBe(before['support___user.recording.json'])
  })

  it("names the exchange when the agent's second reply changed: the user's next message is a replay miss", async () => {
    const dir = tempDir()
    const { client } = await recorded(dir)
    const user = simulatedUser({ goal: GOAL, persona: 'Polite; gives the order number when asked', model: { client, model: 'gpt-4o-mini' } })
    const changed = supportAgent(client, (reply, exchange) => (exchange === 2 ? `${reply} Anything else?` : reply))
    const error: unknown = await conversation('support', { user, maxTurns: 4, traceDir: dir, replay: 'replay' }, changed).catch((e: unknown) => e)
    expect(isReplayMissError(error)).toBe(true)
    const message = (error as Error).message
    expect(message).toBe(
      `conversation "support", exchange 3, the simulated user's message (the agent's reply in exchange 2 is not the one recorded): session "support > user": call 3 (openai POST /chat/completions) has no recorded answer in ${join(dir, 'support___user.recording.json')}: the nearest recorded request (call 3 of the recording) differs (- recorded, + this call):
  @@ -22,5 +22,5 @@
       },
       {
  -      "content": "Refunded $19.99 for order 42.",
  +      "content": "Refunded $19.99 for order 42. Anything else?",
         "role": "user"
       }
Record again with REAGENT_REPLAY=record (or the session option replay: 'record'), or use replay: 'auto' to record only the calls that changed.`,
    )
    expect((error as { exchange?: number }).exchange).toBe(3)
    const agent = loadTrace(join(dir, 'support.trace.json'))
    expect(agent.status).toBe('failed')
    expect(agent.conversation?.ended_by).toBe('error')
    expect(agent.conversation?.messages.at(-1)?.content).toBe('Refunded $19.99 for order 42. Anything else?')
  })

  it("fails the conversation with the user's model error, naming the exchange, the transcript kept", async () => {
    const dir = tempDir()
    const desk = supportDesk()
    let userCalls = 0
    const server = await startCannedServer((request, index) => {
      if (JSON.stringify(request.body).includes('role-playing') && ++userCalls === 2)
        return { status: 500, json: { error: { message: 'the user model is down' } } }
      return desk(request, index)
    })
    const client = deskClient(server)
    const user = simulatedUser({ goal: GOAL, model: { client, model: 'gpt-4o-mini' } })
    const error: unknown = await conversation('support', { user, traceDir: dir }, supportAgent(client)).catch((e: unknown) => e)
    await server.close()
    expect(isSimulatedUserError(error)).toBe(true)
    expect((error as Error).message).toBe(
      'conversation "support", exchange 2: the simulated user could not give its message: 500 the user model is down. The conversation so far is on its trace (conversation); the user\'s model calls are in its own run.',
    )
    expect(loadTrace(join(dir, 'support.trace.json')).conversation?.messages).toHaveLength(2)
    expect(loadTrace(join(dir, 'support___user.trace.json')).status).toBe('failed')
  })

  it('ends as failed when the user model answers with nothing, and stops at maxTurns when it never says it is done', async () => {
    const dir = tempDir()
    const server = await startCannedServer(supportDesk((said) => (said === 0 ? { text: 'hello?' } : { text: '' })))
    const client = deskClient(server)
    const mute = simulatedUser({ goal: GOAL, model: { client, model: 'gpt-4o-mini' } })
    await expect(conversation('mute', { user: mute, traceDir: dir }, supportAgent(client))).rejects.toThrow(
      'conversation "mute", exchange 2: the simulated user could not give its message: the simulated user\'s model (openai:gpt-4o-mini) returned no message and did not call end_conversation.',
    )
    await server.close()
    const chatty = await startCannedServer(supportDesk(() => ({ text: 'one more question' })))
    const client2 = deskClient(chatty)
    const endless = simulatedUser({ goal: GOAL, model: { client: client2, model: 'gpt-4o-mini' } })
    const conv = await conversation('endless', { user: endless, maxTurns: 2, traceDir: dir }, supportAgent(client2))
    await chatty.close()
    expect(conv.output).toMatchObject({ endedBy: 'max_turns', exchanges: 2, goalMet: null })
    // Two exchanges, and the third question the user was asked but never got to say.
    expect(chatty.requests.filter((r) => JSON.stringify(r.body).includes('role-playing'))).toHaveLength(3)
  })

  it('keeps the agent trace about the agent: its tokens are its own four calls', async () => {
    const dir = tempDir()
    const { conv } = await recorded(dir)
    const trace: Trace = conv.trace
    expect(trace.turns.map((turn) => turn.llm_call.token_usage?.input_tokens)).toEqual([60, 60, 60, 60])
  })

  it("keeps the agent's limits and faults to the agent: the user's calls are neither counted nor faulted", async () => {
    const dir = tempDir()
    const server = await startCannedServer(supportDesk())
    const client = deskClient(server)
    const user = simulatedUser({ goal: GOAL, model: { client, model: 'gpt-4o-mini' } })
    // The agent makes four model calls and the user three: counted together, the limit and the fault would both hit.
    const conv = await conversation(
      'limited',
      { user, traceDir: dir, limits: { turns: 4 }, faults: [{ llm: true, status: 500, after: 4 }] },
      supportAgent(client),
    )
    expect(conv.output).toMatchObject({ endedBy: 'user', goalMet: true })
    const tight = simulatedUser({ goal: GOAL, model: { client, model: 'gpt-4o-mini' } })
    const error: unknown = await conversation('too-tight', { user: tight, traceDir: dir, limits: { turns: 3 } }, supportAgent(client)).catch((e: unknown) => e)
    await server.close()
    expect(isBudgetExceededError(error)).toBe(true)
    expect((error as { sessionName: string }).sessionName).toBe('too-tight')
  })
})
