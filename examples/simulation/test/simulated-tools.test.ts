// test/simulated-tools.test.ts
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel, type LanguageModel } from 'ai'
import { expect } from 'vitest'
import { reagentMiddleware } from 'reagent-flow/ai-sdk'
import { scriptedLanguageModel } from 'reagent-flow/fake'
import { simulatedTool } from 'reagent-flow/simulate'
import { test } from 'reagent-flow/vitest'

// Answered by a model from a scenario: no flight database in the test. In your suite the model is
// a real one, e.g. { client: new OpenAI(), model: 'gpt-4o-mini' }; a scripted one here, to run offline.
const findFlights = simulatedTool<{ from: string; to: string; date: string }>('find_flights', {
  description: 'Lists the flights from one city to another on a day.',
  parameters: {
    type: 'object',
    properties: { from: { type: 'string' }, to: { type: 'string' }, date: { type: 'string' } },
    required: ['from', 'to', 'date'],
  },
  resultSchema: {
    type: 'object',
    properties: { flights: { type: 'array', items: { type: 'object', properties: { flight: { type: 'string' }, departs: { type: 'string' } } } } },
    required: ['flights'],
  },
  answer: {
    model: scriptedLanguageModel([{ toolCalls: [{ name: 'return_result', arguments: { flights: [{ flight: 'TP1350', departs: '09:10' }] } }] }]),
    scenario: 'On 3 May one flight goes from Paris to Lisbon: TP1350, leaving at 09:10. It has two free seats.',
  },
})

// A stateful fake: every session starts with two free seats, and a booking is seen by the calls after it.
const bookSeat = simulatedTool('book_seat', {
  description: 'Books one seat on a flight.',
  parameters: { type: 'object', properties: { flight: { type: 'string' } }, required: ['flight'] },
  answer: {
    state: { free: 2 },
    answer: ({ flight }: { flight: string }, state) => (state.free === 0 ? { error: `${flight} is full` } : { booked: flight, seatsLeft: --state.free }),
  },
})

async function travelAgent(model: LanguageModel, request: string): Promise<string> {
  const tools = {
    find_flights: tool({ description: findFlights.description, inputSchema: jsonSchema<{ from: string; to: string; date: string }>(findFlights.parameters), execute: findFlights }),
    book_seat: tool({ description: bookSeat.description, inputSchema: jsonSchema<{ flight: string }>(bookSeat.parameters), execute: bookSeat }),
  }
  const { text } = await generateText({ model, tools, prompt: request, stopWhen: stepCountIs(6) })
  return text
}

test('books the two seats left and says the third could not be booked', async ({ agentSession }) => {
  const book = { name: 'book_seat', arguments: { flight: 'TP1350' } }
  const agentModel = scriptedLanguageModel([
    { toolCalls: [{ name: 'find_flights', arguments: { from: 'Paris', to: 'Lisbon', date: '2026-05-03' } }] },
    { toolCalls: [book] },
    { toolCalls: [book] },
    { toolCalls: [book] },
    { text: 'Two seats on TP1350 are booked; the flight is full for the third.' },
  ])

  const s = await agentSession(() => travelAgent(wrapLanguageModel({ model: agentModel, middleware: reagentMiddleware() }), 'Three seats, Paris to Lisbon, 3 May.'))

  expect(s).toMatchFlow(['find_flights', 'book_seat', 'book_seat', 'book_seat'])
  expect(s.trace.turns.map((turn) => turn.tool_results[0]?.result)).toEqual([
    { flights: [{ flight: 'TP1350', departs: '09:10' }] },
    { booked: 'TP1350', seatsLeft: 1 },
    { booked: 'TP1350', seatsLeft: 0 },
    { error: 'TP1350 is full' },
    undefined,
  ])
  // The simulated tool's model is not the agent's: its call is in "<test> > tools", not in the agent's five turns.
  expect(s.trace.turns).toHaveLength(5)
})
