/**
 * What a matcher says when it is given something that is not a run. The
 * case users meet: the state a LangChain agent returned, whose messages
 * would otherwise be printed whole.
 */
import { HumanMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import '../../src/entries/vitest.js'
import { describeReceived } from '../../src/assert/received.js'
import { scriptedChatModel } from '../../src/entries/fake-langchain.js'
import { session } from '../../src/entries/index.js'

const NOT_A_RUN = 'must be a Session, a Trace (as loadTrace() returns) or a chain node (loadChain()), got'
const PASS_THE_SESSION = 'Pass the Session that session() resolves to (or a loaded Trace), not what the agent returned.'

async function reactAgentState(): Promise<{ messages: unknown[] }> {
  const lookupOrder = tool(async ({ order_id }) => ({ order_id, amount: 19.99, notes: 'x'.repeat(2_000) }), {
    name: 'lookup_order',
    description: 'Look an order up by id.',
    schema: z.object({ order_id: z.string() }),
  })
  const llm = scriptedChatModel([{ toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] }, { text: 'Order 42 is refunded.' }])
  const agent = createReactAgent({ llm, tools: [lookupOrder] })
  return agent.invoke({ messages: [new HumanMessage('Refund order 42, please.')] })
}

describe('a value that is not a run, given to a matcher', () => {
  it('is the state a LangChain agent returned: one line naming its keys and what to pass instead, not its messages', async () => {
    const state = await reactAgentState()
    expect(JSON.stringify(state).length).toBeGreaterThan(2_000)
    // @ts-expect-error an agent's state is not a run
    expect(() => expect(state).toHaveCalledTool('lookup_order')).toThrow(
      new TypeError(`toHaveCalledTool(): the value given to expect() ${NOT_A_RUN} an object with key "messages". ${PASS_THE_SESSION}`),
    )
    // @ts-expect-error nor are its messages
    expect(() => expect(state.messages).toMatchFlow(['lookup_order'])).toThrow(
      new TypeError(`toMatchFlow(): the value given to expect() ${NOT_A_RUN} an array of 4 items (the first a HumanMessage). ${PASS_THE_SESSION}`),
    )
    // @ts-expect-error nor is its last message
    expect(() => expect(state.messages.at(-1)).toHaveFinalAnswer('Order 42 is refunded.')).toThrow(
      new TypeError(`toHaveFinalAnswer(): the value given to expect() ${NOT_A_RUN} an AIMessage object. ${PASS_THE_SESSION}`),
    )
  })

  it('is a session not awaited: says to await it', async () => {
    const pending = session('refund-agent', { save: false }, () => 'Refunded.')
    // @ts-expect-error the forgotten await
    expect(() => expect(pending).toHaveSucceeded()).toThrow(
      new TypeError(`toHaveSucceeded(): the value given to expect() ${NOT_A_RUN} a Promise. Await it first: expect(await session(...)).`),
    )
    expect(await pending).toHaveSucceeded()
  })

  it('is the agent function: says to run it inside session()', () => {
    async function runAgent(): Promise<string> {
      return 'Refunded.'
    }
    // @ts-expect-error a function is not a run
    expect(() => expect(runAgent).toHaveCalledTool('issue_refund')).toThrow(
      new TypeError(
        `toHaveCalledTool(): the value given to expect() ${NOT_A_RUN} a function (runAgent). Run it inside session() and pass the Session that session() resolves to.`,
      ),
    )
  })

  it('holds a trace that is not one: says so', () => {
    // @ts-expect-error not a trace inside
    expect(() => expect({ trace: { name: 'x' } }).toHaveSucceeded()).toThrow(
      new TypeError(`toHaveSucceeded(): the value given to expect() ${NOT_A_RUN} an object whose "trace" is an object with key "name", not a Trace.`),
    )
  })
})

describe('describeReceived()', () => {
  it('describes any value in one short line, whatever its size', () => {
    const many = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`key_${i}`, 'x'.repeat(100)]))
    const started = performance.now()
    expect(describeReceived(many)).toBe('an object with keys "key_0", "key_1", "key_2", "key_3", … (100000)')
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(describeReceived('Refunded order 42 and notified the customer by email.')).toBe('"Refunded order 42 and notified the cust…" (string)')
    expect(describeReceived(Array.from({ length: 3 }))).toBe('an array of 3 items')
    expect(describeReceived([])).toBe('an array of 0 items')
    expect(describeReceived(new Map())).toBe('a Map object')
    expect(describeReceived(Object.create(null))).toBe('an object with no keys')
    expect(describeReceived(10n)).toBe('10n (bigint)')
    expect(describeReceived(undefined)).toBe('undefined')
    expect(describeReceived(() => 1)).toBe('a function')
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf: () => {
          throw new Error('no')
        },
      },
    )
    expect(describeReceived(hostile)).toBe('an object with no keys')
  })
})
