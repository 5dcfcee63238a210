import { describe, expect, it } from 'vitest'
import { ReagentCallbackHandler } from '../../../src/entries/langchain.js'
import { session } from '../../../src/entries/index.js'
import { toolSetId } from '../../helpers/tool-set-id.js'
import { agentLoop, call, scriptedModel } from './agent-kit.js'

const SCHEMA = 'https://json-schema.org/draft/2020-12/schema'

/** The agent kit's three tools, their zod schemas converted to JSON Schema by @langchain/core, as the trace keeps them. */
const KIT_TOOLS = [
  {
    description: 'Charge the card on file.',
    kind: 'function',
    name: 'charge_card',
    parameters: { $schema: SCHEMA, additionalProperties: false, properties: { cents: { type: 'number' } }, required: ['cents'], type: 'object' },
  },
  {
    description: 'Refund an order.',
    kind: 'function',
    name: 'issue_refund',
    parameters: {
      $schema: SCHEMA,
      additionalProperties: false,
      properties: { amount: { type: 'number' }, order_id: { type: 'string' } },
      required: ['order_id', 'amount'],
      type: 'object',
    },
  },
  {
    description: 'Look an order up by id.',
    kind: 'function',
    name: 'lookup_order',
    parameters: { $schema: SCHEMA, additionalProperties: false, properties: { order_id: { type: 'string' } }, required: ['order_id'], type: 'object' },
  },
]

describe('ReagentCallbackHandler: the tools bound to the chat model', () => {
  it('stores the zod tools bound to the model once, as JSON Schema, each call naming the set', async () => {
    const script = [{ toolCalls: [call('lookup_order', { order_id: '42' }, 'call_lookup')] }, 'Order 42 is delivered.']
    const agent = agentLoop(scriptedModel(script))
    const s = await session('bound-tools', { save: false }, () => agent.invoke('Where is order 42?', { callbacks: [new ReagentCallbackHandler()] }))

    const id = toolSetId(KIT_TOOLS)
    expect(s.trace.tool_sets).toEqual({ [id]: KIT_TOOLS })
    expect(s.trace.turns.map((turn) => turn.llm_call.tool_set)).toEqual([id, id])
  })
})
