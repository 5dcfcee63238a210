import { readdirSync } from 'node:fs'
import { HumanMessage } from '@langchain/core/messages'
import { tool as langchainTool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { scriptedLanguageModel } from '../../src/entries/fake.js'
import { scriptedChatModel } from '../../src/entries/fake-langchain.js'
import { instrumentLangChain } from '../../src/entries/langchain.js'
import { isToolFaultError, session, type Session } from '../../src/entries/index.js'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { isSimulatedToolError, simulatedTool, type SimulatedTool } from '../../src/entries/simulate.js'
import { helperRunsOf } from '../../src/session/helper-runs.js'
import { startCannedServer, type CannedResponse, type CannedServer, type Handler } from '../helpers/canned-server.js'
import { watchSockets } from '../helpers/sockets.js'
import { tempDir } from '../helpers/temp-dir.js'
import { completion } from './model-kit.js'

const ORDER_PARAMETERS = { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] }
const ORDER_RESULT = { type: 'object', properties: { status: { type: 'string' }, amount: { type: 'number' } }, required: ['status', 'amount'] }

/**
 * The canned server as two models: the agent's (its requests have no
 * simulated tool's system prompt) and the simulated tool's, each answering
 * from its own queue.
 */
function agentAndTool(agent: CannedResponse[], toolModel: CannedResponse[]): Handler {
  let agentIndex = 0
  let toolIndex = 0
  return (request) => {
    const system = ((request.body as { messages?: Array<{ content?: unknown }> }).messages?.[0]?.content ?? '') as string
    const queue = system.startsWith('You simulate the tool') ? toolModel[toolIndex++] : agent[agentIndex++]
    return queue ?? { status: 500, json: { error: { message: 'canned server: nothing queued' } } }
  }
}

function openai(server: CannedServer): OpenAI {
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 0 })
}

/** A chat completions agent: calls the tools the model asks for (an error goes back as text) until the model answers. */
async function runAgent(client: OpenAI, tools: ReadonlyArray<SimulatedTool<never, unknown>>, question: string): Promise<string | null> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }]
  for (;;) {
    const answer = await client.chat.completions.create({ model: 'gpt-4o', messages, tools: tools.map((each) => each.openai) })
    const message = answer.choices[0]!.message
    messages.push(message)
    if (message.tool_calls === undefined || message.tool_calls.length === 0) return message.content
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue
      const simulated = tools.find((each) => each.name === call.function.name) as unknown as SimulatedTool<unknown, unknown>
      const content = await simulated(JSON.parse(call.function.arguments), { toolCallId: call.id }).then(
        (result) => JSON.stringify(result),
        (error: unknown) => `error: ${(error as Error).message}`,
      )
      messages.push({ role: 'tool', tool_call_id: call.id, content })
    }
  }
}

const askForOrder = completion({ tool: 'lookup_order', args: '{"order_id":"42"}' })
const finalAnswer = completion({ text: 'Order 42 was delivered.' })

function toolsRun(owner: Session): Session {
  const runs = helperRunsOf(owner).filter((run) => run.role === 'tools')
  expect(runs).toHaveLength(1)
  return runs[0]!.session
}

describe('simulatedTool answered by a function', () => {
  it('is called with the arguments and the call number, and its result is recorded as the result of the model’s tool call', async () => {
    const seen: unknown[] = []
    const lookupOrder = simulatedTool('lookup_order', {
      description: 'Looks an order up by id.',
      parameters: ORDER_PARAMETERS,
      answer: (args: { order_id: string }, context) => {
        seen.push([args, context])
        return { status: 'delivered', amount: 19.99 }
      },
    })
    const server = await startCannedServer(agentAndTool([askForOrder, finalAnswer], []))
    const s = await session('function-tool', { save: false }, () => runAgent(instrumentOpenAI(openai(server)), [lookupOrder], 'Where is order 42?'))

    expect(s.output).toBe('Order 42 was delivered.')
    expect(seen).toEqual([[{ order_id: '42' }, { tool: 'lookup_order', call: 1 }]])
    expect(s.trace.turns[0]!.llm_call.tool_calls.map((call) => [call.name, call.arguments, call.call_id])).toEqual([
      ['lookup_order', { order_id: '42' }, 'call_1'],
    ])
    expect(s.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'call_1', result: { status: 'delivered', amount: 19.99 }, error: null, duration_ms: expect.any(Number) },
    ])
    expect(helperRunsOf(s)).toEqual([])
  })

  it('hands the agent its definition: name, description, JSON Schema parameters, and the OpenAI and Anthropic tool shapes', () => {
    const lookupOrder = simulatedTool('lookup_order', { description: 'Looks an order up by id.', parameters: ORDER_PARAMETERS, answer: () => null })
    expect([lookupOrder.name, lookupOrder.description, lookupOrder.parameters]).toEqual(['lookup_order', 'Looks an order up by id.', ORDER_PARAMETERS])
    expect(lookupOrder.openai).toEqual({
      type: 'function',
      function: { name: 'lookup_order', description: 'Looks an order up by id.', parameters: ORDER_PARAMETERS },
    })
    expect(lookupOrder.anthropic).toEqual({ name: 'lookup_order', description: 'Looks an order up by id.', input_schema: ORDER_PARAMETERS })
  })

  it('fails the call, recorded as a tool error, when its result does not fit the result schema', async () => {
    const lookupOrder = simulatedTool('lookup_order', {
      description: 'Looks an order up.',
      parameters: ORDER_PARAMETERS,
      resultSchema: ORDER_RESULT,
      answer: () => ({ status: 'lost' }),
    })
    const server = await startCannedServer(agentAndTool([askForOrder, finalAnswer], []))
    const s = await session('function-tool-invalid', { save: false }, () => runAgent(instrumentOpenAI(openai(server)), [lookupOrder], 'Where is order 42?'))
    expect(s.trace.turns[0]!.tool_results[0]!.error).toBe(
      `SimulatedToolError: simulatedTool("lookup_order"): the answer function's result does not fit resultSchema (result.amount: is required). Fix the function, or the schema.`,
    )
  })

  it('fails with the fault a session injects, without being asked', async () => {
    let asked = 0
    const lookupOrder = simulatedTool('lookup_order', { description: 'Looks an order up.', parameters: ORDER_PARAMETERS, answer: () => ++asked })
    const server = await startCannedServer(agentAndTool([askForOrder, finalAnswer], []))
    const s = await session('faulted-tool', { save: false, faults: [{ tool: 'lookup_order', error: 'orders database unreachable' }] }, async () => {
      const error = await lookupOrder({ order_id: '1' }).catch((caught: unknown) => caught)
      return [isToolFaultError(error), await runAgent(instrumentOpenAI(openai(server)), [lookupOrder], 'Where is order 42?')]
    })
    expect(asked).toBe(0)
    expect(s.output).toEqual([true, 'Order 42 was delivered.'])
    expect(server.requests[1]!.body).toMatchObject({ messages: [{}, {}, { role: 'tool', content: 'error: orders database unreachable' }] })
    expect(s.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'call_1', result: null, error: 'ToolFaultError: orders database unreachable', duration_ms: expect.any(Number) },
    ])
    expect([s.trace.turns[0]!.injected, s.trace.turns[0]!.injected_results]).toEqual([true, ['call_1']])
  })
})

describe('simulatedTool as a stateful fake', () => {
  const seats = () =>
    simulatedTool('book_seat', {
      description: 'Books a seat on a flight.',
      parameters: { type: 'object', properties: { flight: { type: 'string' } }, required: ['flight'] },
      answer: {
        state: { left: 2, booked: [] as string[] },
        answer: ({ flight }: { flight: string }, state, { call }) => {
          if (state.left === 0) return { error: `flight ${flight} is full`, booked: [...state.booked] }
          state.left--
          state.booked.push(`${flight}#${call}`)
          return { seat: call, booked: [...state.booked] }
        },
      },
    })

  /** An AI SDK agent (a scripted model) booking three seats, the tool used as `tool({ execute })`. */
  async function bookThree(bookSeat: ReturnType<typeof seats>): Promise<unknown[]> {
    const book = { name: 'book_seat', arguments: { flight: 'TP1350' } }
    const model = wrapLanguageModel({
      model: scriptedLanguageModel([{ toolCalls: [book] }, { toolCalls: [book] }, { toolCalls: [book] }, { text: 'Done.' }]),
      middleware: reagentMiddleware(),
    })
    const result = await generateText({
      model,
      prompt: 'Book three seats on TP1350.',
      tools: { book_seat: tool({ description: bookSeat.description, inputSchema: jsonSchema<{ flight: string }>(bookSeat.parameters), execute: bookSeat }) },
      stopWhen: stepCountIs(5),
    })
    return result.steps.flatMap((step) => step.toolResults.map((each) => each.output))
  }

  it('keeps the state across the calls of one session, and starts each session fresh', async () => {
    const bookSeat = seats()
    const first = await session('stateful-1', { save: false }, () => bookThree(bookSeat))
    const second = await session('stateful-2', { save: false }, () => bookThree(bookSeat))
    const expected = [
      { seat: 1, booked: ['TP1350#1'] },
      { seat: 2, booked: ['TP1350#1', 'TP1350#2'] },
      { error: 'flight TP1350 is full', booked: ['TP1350#1', 'TP1350#2'] },
    ]
    expect(first.output).toEqual(expected)
    expect(second.output).toEqual(expected)
    expect(first.trace.turns.flatMap((turn) => turn.tool_results.map((result) => result.result))).toEqual(expected)
  })
})

describe('simulatedTool answered by a model', () => {
  const lookupOrder = (client: OpenAI) =>
    simulatedTool('lookup_order', {
      description: 'Looks an order up by id.',
      parameters: ORDER_PARAMETERS,
      resultSchema: ORDER_RESULT,
      answer: { model: { client, model: 'gpt-4o-mini' }, scenario: 'Order 42 was delivered on 2 May; it cost 19.99 EUR.' },
    })
  const toolSystem =
    'You simulate the tool "lookup_order" in a test of an AI agent. You are not the agent and you talk to no one: each message is a call of the tool, and you answer it with the result the real tool would return.\n\n' +
    'The tool: Looks an order up by id.\n\n' +
    `Its arguments (JSON Schema): ${JSON.stringify(ORDER_PARAMETERS)}\n\n` +
    'The scenario (what is true in the world the tool sees):\nOrder 42 was delivered on 2 May; it cost 19.99 EUR.\n\n' +
    'Stay consistent with the results you gave to earlier calls.\n\n' +
    'Answer by calling return_result with the result.'
  const resultTool = [{ type: 'function', function: { name: 'return_result', description: 'Returns the result of the tool call.', parameters: ORDER_RESULT } }]
  const delivered = completion({ tool: 'return_result', args: '{"status":"delivered","amount":19.99}' })

  it('asks the model with the tool, the scenario and the call, in "<name> > tools"; recorded, then replayed offline', async () => {
    const dir = tempDir('reagent-simulated-tool-')
    const server = await startCannedServer(
      agentAndTool([askForOrder, completion({ tool: 'lookup_order', args: '{"order_id":"42"}', id: 'call_2' }), finalAnswer], [delivered, delivered]),
    )
    const client = openai(server)
    const agent = () => runAgent(instrumentOpenAI(client), [lookupOrder(client)], 'Where is order 42?')
    const recorded = await session('model-tool', { traceDir: dir, replay: 'record' }, agent)
    const sent = server.requests.map((request) => request.body as { messages: Array<{ role: string; content: unknown }> })

    // The second call of the tool is shown the first call and its result, so its answer agrees.
    expect(sent.filter((body) => body.messages[0]!.content === toolSystem)).toEqual([
      {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: toolSystem },
          { role: 'user', content: 'lookup_order({"order_id":"42"})' },
        ],
        tools: resultTool,
        tool_choice: 'required',
      },
      expect.objectContaining({
        messages: [
          { role: 'system', content: toolSystem },
          { role: 'user', content: 'lookup_order({"order_id":"42"})' },
          { role: 'assistant', content: '{"status":"delivered","amount":19.99}' },
          { role: 'user', content: 'lookup_order({"order_id":"42"})' },
        ],
      }),
    ])
    expect(recorded.output).toBe('Order 42 was delivered.')
    expect(recorded.trace.turns.map((turn) => turn.tool_results.map((result) => result.result))).toEqual([
      [{ status: 'delivered', amount: 19.99 }],
      [{ status: 'delivered', amount: 19.99 }],
      [],
    ])
    // The tool's model is not the agent's: its calls are in the helper run, not in the agent's trace.
    expect(recorded.trace.turns).toHaveLength(3)
    const tools = toolsRun(recorded)
    expect([tools.name, tools.trace.parent_trace_id, tools.trace.metadata.reagent_role]).toEqual(['model-tool > tools', recorded.trace.trace_id, 'tools'])
    expect(tools.trace.turns.map((turn) => [turn.llm_call.model, turn.llm_call.token_usage?.input_tokens])).toEqual([
      ['gpt-4o-mini-2024-07-18', 50],
      ['gpt-4o-mini-2024-07-18', 50],
    ])
    expect(
      readdirSync(dir)
        .filter((file) => file.endsWith('.recording.json'))
        .sort(),
    ).toEqual(['model-tool.recording.json', 'model-tool___tools.recording.json'])

    await server.close()
    const sockets = watchSockets()
    const replayClient = openai(server)
    const replayed = await session('model-tool', { traceDir: dir, replay: 'replay' }, () =>
      runAgent(instrumentOpenAI(replayClient), [lookupOrder(replayClient)], 'Where is order 42?'),
    )
    expect(replayed.output).toBe('Order 42 was delivered.')
    expect(replayed.trace.turns.map((turn) => turn.tool_results.map((result) => result.result))).toEqual(
      recorded.trace.turns.map((turn) => turn.tool_results.map((result) => result.result)),
    )
    expect(toolsRun(replayed).trace.turns.map((turn) => turn.llm_call.replayed)).toEqual([true, true])
    expect(sockets.opened()).toBe(0)
  })

  it('misses in replay, failing the tool call, when the tool was given another scenario', async () => {
    const dir = tempDir('reagent-simulated-tool-')
    const server = await startCannedServer(agentAndTool([askForOrder, finalAnswer], [delivered]))
    const tool = (client: OpenAI, scenario: string) =>
      simulatedTool('lookup_order', {
        description: 'Looks an order up by id.',
        parameters: ORDER_PARAMETERS,
        resultSchema: ORDER_RESULT,
        answer: { model: { client, model: 'gpt-4o-mini' }, scenario },
      })
    const agent = (scenario: string) => () => {
      const client = openai(server)
      // The agent hands the tool's error to its model, whose request then differs too: that is the agent's miss.
      return runAgent(instrumentOpenAI(client), [tool(client, scenario)], 'Where is order 42?').catch((error: unknown) => (error as Error).name)
    }
    await session('model-tool-miss', { traceDir: dir, replay: 'record' }, agent('Order 42 was delivered.'))
    await server.close()
    const replayed = await session('model-tool-miss', { traceDir: dir, replay: 'replay' }, agent('Order 42 was lost.'))
    expect(replayed.output).toBe('ReplayMissError')
    expect(replayed.trace.turns[0]!.tool_results[0]!.error).toMatch(
      /^ReplayMissError: session "model-tool-miss > tools": call 1 \(openai POST \/chat\/completions\) has no recorded answer in .*model-tool-miss___tools\.recording\.json: /,
    )
  })

  it('sends an invalid answer back once with what was wrong, and takes the corrected one', async () => {
    const server = await startCannedServer(
      agentAndTool([askForOrder, finalAnswer], [completion({ tool: 'return_result', args: '{"status":"delivered","amount":"19.99"}' }), delivered]),
    )
    const client = openai(server)
    const s = await session('model-tool-retry', { save: false }, () => runAgent(instrumentOpenAI(client), [lookupOrder(client)], 'Where is order 42?'))
    const retry = server.requests[2]!.body as { messages: unknown[] }
    expect(retry.messages.slice(2)).toEqual([
      { role: 'assistant', content: '{"status":"delivered","amount":"19.99"}' },
      {
        role: 'user',
        content:
          'That result is invalid: result.amount: must be number. Answer the same call again, by calling return_result with a result that fits its schema.',
      },
    ])
    expect(s.trace.turns[0]!.tool_results[0]!.result).toEqual({ status: 'delivered', amount: 19.99 })
    expect(toolsRun(s).trace.turns).toHaveLength(2)
  })

  it('fails the call, recorded as a tool error, when the answer is invalid twice; the agent goes on', async () => {
    const server = await startCannedServer(
      agentAndTool(
        [askForOrder, finalAnswer],
        [completion({ tool: 'return_result', args: '{"status":"delivered"}' }), completion({ text: 'It was delivered.' })],
      ),
    )
    const client = openai(server)
    const s = await session('model-tool-invalid', { save: false }, async () => {
      const tool = lookupOrder(client)
      return runAgent(instrumentOpenAI(client), [tool], 'Where is order 42?')
    })
    const message =
      `SimulatedToolError: simulatedTool("lookup_order"): the model's answer was invalid twice (first: result.amount: is required; then: return_result was not called), so the call fails. ` +
      'Make the scenario say what the result holds, loosen resultSchema, or use a model that follows tool schemas better.'
    expect(s.status).toBe('completed')
    expect(s.output).toBe('Order 42 was delivered.')
    expect(s.trace.turns[0]!.tool_results).toEqual([{ call_id: 'call_1', result: null, error: message, duration_ms: expect.any(Number) }])
  })

  it('answers with JSON text when there is no result schema, and keeps its spend out of the agent’s trace', async () => {
    const server = await startCannedServer(agentAndTool([askForOrder, finalAnswer], [completion({ text: '```json\n{"status":"lost"}\n```' })]))
    const client = openai(server)
    const lookup = simulatedTool('lookup_order', {
      description: 'Looks an order up by id.',
      parameters: ORDER_PARAMETERS,
      answer: { model: { client, model: 'gpt-4o-mini' }, scenario: 'Order 42 was lost in transit.' },
    })
    const s = await session('model-tool-json', { save: false }, () => runAgent(instrumentOpenAI(client), [lookup], 'Where is order 42?'))
    const toolRequest = server.requests[1]!.body as Record<string, unknown>
    expect('tools' in toolRequest || 'tool_choice' in toolRequest).toBe(false)
    expect((toolRequest.messages as Array<{ content: string }>)[0]!.content).toContain('Answer with the result as JSON only: no prose, no code fence.')
    expect(s.trace.turns[0]!.tool_results[0]!.result).toEqual({ status: 'lost' })
    expect(s.trace.turns.map((turn) => turn.llm_call.model)).toEqual(['gpt-4o-mini-2024-07-18', 'gpt-4o-mini-2024-07-18'])
    expect(s.trace.turns.map((turn) => turn.llm_call.messages?.[0])).toEqual([
      { role: 'user', content: 'Where is order 42?' },
      { role: 'user', content: 'Where is order 42?' },
    ])
    expect(toolsRun(s).trace.turns).toHaveLength(1)
  })
})

describe('simulatedTool with a result schema that is not an object schema', () => {
  it("asks for it as return_result's `result` argument, and answers the value in it", async () => {
    const model = scriptedLanguageModel([{ toolCalls: [{ name: 'return_result', arguments: { result: ['TP1350', 'TP1352'] } }] }])
    const flights = simulatedTool('list_flights', {
      description: 'Lists flight numbers.',
      parameters: { type: 'object', properties: {} },
      resultSchema: { type: 'array', items: { type: 'string' } },
      answer: { model, scenario: 'Two flights: TP1350 and TP1352.' },
    })
    const s = await session('wrapped-result', { save: false }, () => flights({}))
    expect(s.output).toEqual(['TP1350', 'TP1352'])
    expect(model.requests.map((request) => request.tools)).toEqual([
      [
        {
          name: 'return_result',
          description: 'Returns the result of the tool call.',
          parameters: { type: 'object', properties: { result: { type: 'array', items: { type: 'string' } } }, required: ['result'] },
        },
      ],
    ])
  })
})

describe('simulatedTool outside a session', () => {
  it('answers, keeping one state for the process', async () => {
    const counter = simulatedTool('count', {
      description: 'Counts.',
      parameters: { type: 'object' },
      answer: { state: { n: 0 }, answer: (_args, state) => ++state.n },
    })
    expect([await counter({}), await counter({})]).toEqual([1, 2])
  })
})

describe('simulatedTool in a LangChain agent, answered by a LangChain model', () => {
  it("records the tool's model in '<name> > tools', not in the agent's run it was called from", async () => {
    instrumentLangChain()
    const lookup = simulatedTool('lookup_order', {
      description: 'Looks an order up by id.',
      parameters: ORDER_PARAMETERS,
      resultSchema: ORDER_RESULT,
      answer: {
        model: scriptedChatModel([{ toolCalls: [{ name: 'return_result', arguments: { status: 'delivered', amount: 19.99 } }] }]),
        scenario: 'Order 42 was delivered.',
      },
    })
    const tools = [
      langchainTool((input: { order_id: string }, config) => lookup(input, config), {
        name: lookup.name,
        description: lookup.description,
        schema: lookup.parameters,
      }),
    ]
    const llm = scriptedChatModel([{ toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }] }, { text: 'Order 42 was delivered.' }])
    const agent = createReactAgent({ llm, tools })
    const s = await session(
      'langchain-tool',
      { save: false },
      async () => (await agent.invoke({ messages: [new HumanMessage('Where is order 42?')] })).messages.at(-1)!.text,
    )

    expect(s.output).toBe('Order 42 was delivered.')
    expect(s.trace.turns).toHaveLength(2)
    expect(s.trace.turns[0]!.tool_results.map((result) => result.result)).toEqual([{ status: 'delivered', amount: 19.99 }])
    expect(toolsRun(s).trace.turns.map((turn) => turn.llm_call.tool_calls.map((call) => call.name))).toEqual([['return_result']])
  })
})

describe('simulatedTool: its options checked where it is made', () => {
  it.each([
    [
      'a name OpenAI would refuse',
      'look up',
      {},
      `simulatedTool(name): name must be 1 to 64 letters, digits, _ or - (what OpenAI and Anthropic accept for a tool), e.g. 'book_flight'; got "look up".`,
    ],
    [
      'no description',
      'lookup',
      { parameters: ORDER_PARAMETERS, answer: (): number => 1 },
      `simulatedTool("lookup"): description must say what the tool does, e.g. 'Books a flight and returns the booking'.`,
    ],
    [
      'parameters that are not an object schema',
      'lookup',
      { description: 'd', parameters: { type: 'string' }, answer: (): number => 1 },
      `simulatedTool("lookup"): parameters must be an object schema (type: 'object'), as tools take named arguments, e.g. { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }.`,
    ],
    [
      'a model without a scenario',
      'lookup',
      { description: 'd', parameters: ORDER_PARAMETERS, answer: { model: { client: new OpenAI({ apiKey: 'k' }), model: 'gpt-4o-mini' } } },
      `simulatedTool("lookup"): answer.scenario must say what the tool's world holds, e.g. scenario: 'Order 42 was delivered on 2 May for 19.99 EUR'.`,
    ],
    [
      'an answer of no kind',
      'lookup',
      { description: 'd', parameters: ORDER_PARAMETERS, answer: 'delivered' },
      `simulatedTool("lookup"): answer must be { model, scenario } (a model answers), a function (args, context) => result, or { state, answer: (args, state, context) => result } (a stateful fake); got string.`,
    ],
  ])('a TypeError for %s', (_case, name, options, message) => {
    expect(() => simulatedTool(name, options as never)).toThrow(new TypeError(message))
  })

  it('names the tool in the model TypeError', () => {
    expect(() => simulatedTool('lookup', { description: 'd', parameters: ORDER_PARAMETERS, answer: { model: 'gpt-4o' as never, scenario: 's' } })).toThrow(
      /^simulatedTool\("lookup"\) answer: model must be one of/,
    )
  })

  it('a state structuredClone cannot copy is a TypeError that says to pass a function', () => {
    expect(() => simulatedTool('lookup', { description: 'd', parameters: ORDER_PARAMETERS, answer: { state: { now: () => 1 }, answer: () => 1 } })).toThrow(
      /answer\.state must be a value structuredClone can copy .* Pass state: \(\) => \(\{ \.\.\. \}\)\.$/,
    )
  })

  it('the error of an invalid answer is a SimulatedToolError', async () => {
    const tool = simulatedTool('lookup', { description: 'd', parameters: ORDER_PARAMETERS, resultSchema: ORDER_RESULT, answer: () => ({}) })
    expect(isSimulatedToolError(await tool({ order_id: '1' }).catch((error: unknown) => error))).toBe(true)
  })
})
