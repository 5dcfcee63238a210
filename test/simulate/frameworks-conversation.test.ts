/**
 * The support conversation of support-desk.ts with an AI SDK agent and a
 * LangChain agent (each framework's simulated user on the same framework),
 * against the canned server playing both models: recorded, then replayed
 * offline with no socket opened and the recordings untouched; and the
 * agent's changed second reply named in the replay miss.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createOpenAI } from '@ai-sdk/openai'
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages'
import { tool as langchainTool } from '@langchain/core/tools'
import { ChatOpenAI } from '@langchain/openai'
import { generateText, stepCountIs, tool, wrapLanguageModel, type LanguageModel } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { isReplayMissError, type ReplayMode } from '../../src/entries/index.js'
import { instrumentTools, reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { instrumentLangChain } from '../../src/entries/langchain.js'
import { chatHistory, conversation, simulatedUser, type SimulationModel, type Transcript } from '../../src/entries/simulate.js'
import { startCannedServer, type CannedServer } from '../helpers/canned-server.js'
import { watchSockets } from '../helpers/sockets.js'
import { tempDir } from '../helpers/temp-dir.js'
import { AGENT_PROMPT, supportDesk } from './support-desk.js'

instrumentLangChain()

const GOAL = 'Get a refund for order 42'
const lookup = async ({ order_id }: { order_id: string }) => ({ order_id, amount: 19.99, status: 'delivered' })
const refund = async ({ order_id, amount }: { order_id: string; amount: number }) => ({ refund_id: `re_${order_id}`, amount })

type Agent = (message: string, transcript: Transcript, context: { exchange: number }) => Promise<unknown>
interface Stack {
  name: string
  /** The agent and the user's model, talking to `url` (a closed port when replaying). */
  build(url: string, edit?: (reply: string, exchange: number) => string): { agent: Agent; userModel: SimulationModel }
}

const aiSdk: Stack = {
  name: 'an AI SDK agent (generateText with tools, reagentMiddleware)',
  build(url, edit = (reply) => reply) {
    const provider = createOpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test-key' })
    const model: LanguageModel = wrapLanguageModel({ model: provider.chat('gpt-4o-mini'), middleware: reagentMiddleware() })
    const tools = instrumentTools({
      lookup_order: tool({ description: 'Find an order', inputSchema: z.object({ order_id: z.string() }), execute: lookup }),
      issue_refund: tool({ description: 'Refund an order', inputSchema: z.object({ order_id: z.string(), amount: z.number() }), execute: refund }),
    })
    return {
      agent: async (_message, transcript, { exchange }) => {
        const result = await generateText({ model, system: AGENT_PROMPT, messages: chatHistory(transcript), tools, stopWhen: stepCountIs(5) })
        return edit(result.text, exchange)
      },
      userModel: wrapLanguageModel({ model: provider.chat('gpt-4o-mini'), middleware: reagentMiddleware() }) as SimulationModel,
    }
  },
}

const langChain: Stack = {
  name: 'a LangChain agent (ChatOpenAI with bound tools, instrumentLangChain)',
  build(url, edit = (reply) => reply) {
    const chat = () => new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test-key', maxRetries: 0, configuration: { baseURL: `${url}/v1` } })
    const tools = [
      langchainTool(lookup, { name: 'lookup_order', description: 'Find an order', schema: z.object({ order_id: z.string() }) }),
      langchainTool(refund, { name: 'issue_refund', description: 'Refund an order', schema: z.object({ order_id: z.string(), amount: z.number() }) }),
    ]
    const model = chat().bindTools(tools)
    return {
      agent: async (_message, transcript, { exchange }) => {
        const messages: BaseMessage[] = [
          new SystemMessage(AGENT_PROMPT),
          ...transcript.map((m) => (m.role === 'user' ? new HumanMessage(m.content) : new AIMessage(m.content))),
        ]
        for (let step = 0; step < 5; step++) {
          const reply = await model.invoke(messages)
          if (reply.tool_calls === undefined || reply.tool_calls.length === 0) return edit(reply.text, exchange)
          messages.push(reply)
          for (const call of reply.tool_calls) {
            const run = tools.find((t) => t.name === call.name) as { invoke(input: unknown): Promise<BaseMessage> }
            messages.push(await run.invoke(call))
          }
        }
        throw new Error('more than 5 steps')
      },
      userModel: chat() as unknown as SimulationModel,
    }
  },
}

function recordings(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.recording.json'))
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  )
}

async function talk(stack: Stack, url: string, dir: string, replay: ReplayMode, edit?: (reply: string, exchange: number) => string) {
  const { agent, userModel } = stack.build(url, edit)
  const user = simulatedUser({ goal: GOAL, model: userModel })
  return conversation('support', { user, maxTurns: 4, traceDir: dir, replay }, agent)
}

describe.each([aiSdk, langChain])('a support conversation with $name, both models played by the canned server', (stack) => {
  let server: CannedServer
  it('records the conversation, then replays it offline: no socket, the same transcript, the recordings untouched', async () => {
    const dir = tempDir()
    server = await startCannedServer(supportDesk())
    const first = await talk(stack, server.url, dir, 'record')
    await server.close()
    expect(first.output).toMatchObject({ endedBy: 'user', goalMet: true, exchanges: 2 })
    expect(first.trace.conversation?.messages.map((m) => m.content)).toEqual([
      "Hi, I'd like a refund for my order.",
      'I can help with that. What is your order number?',
      "It's order 42.",
      'Refunded $19.99 for order 42.',
    ])
    expect(first.trace.turns.flatMap((turn) => turn.llm_call.tool_calls.map((call) => call.name))).toEqual(['lookup_order', 'issue_refund'])
    const before = recordings(dir)
    expect(Object.keys(before).sort()).toEqual(['support.recording.json', 'support___user.recording.json'])

    const sockets = watchSockets()
    const again = await talk(stack, 'http://127.0.0.1:9', dir, 'replay')
    expect(sockets.opened()).toBe(0)
    expect(again.trace.conversation?.messages).toEqual(first.trace.conversation?.messages)
    expect(recordings(dir)).toEqual(before)
  })

  it("names exchange 2 when the agent's second reply changed", async () => {
    const dir = tempDir()
    server = await startCannedServer(supportDesk())
    await talk(stack, server.url, dir, 'record')
    await server.close()
    const error: unknown = await talk(stack, 'http://127.0.0.1:9', dir, 'replay', (reply, exchange) =>
      exchange === 2 ? `${reply} Anything else?` : reply,
    ).catch((e: unknown) => e)
    expect(isReplayMissError(error)).toBe(true)
    expect((error as Error).message).toMatch(
      /^conversation "support", exchange 3, the simulated user's message \(the agent's reply in exchange 2 is not the one recorded\): session "support > user": call 3 /,
    )
    expect((error as Error).message).toContain('Anything else?')
  })
})
