import { Agent, hostedMcpTool, OpenAIResponsesModel, run } from '@openai/agents'
import { describe, expect, it } from 'vitest'
import { instrumentOpenAIAgents } from '../../../src/entries/openai-agents.js'
import { loadChain, session } from '../../../src/entries/index.js'
import { fixtureJson, inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { toolSetId } from '../../helpers/tool-set-id.js'
import { chatModel, openaiClient, runAgent, triageAgents, triageReplies } from './triage-agents.js'

instrumentOpenAIAgents()

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'

describe('instrumentOpenAIAgents: the tools each model request offers', () => {
  it('records the triage agent its handoff as a handoff tool, and the billing agent its function tool, each set stored in its own run', async () => {
    const server = await startCannedServer(inOrder(...triageReplies()))
    const traceDir = tempDir('agents-tools-')
    const { triage } = triageAgents(chatModel(server))
    await session('support', { traceDir }, () => runAgent(triage, 'I was charged twice for order 42.'))
    const chain = loadChain('support', { traceDir })
    const billing = chain.get('Billing agent')

    const triageTools = [
      {
        description: 'Handoff to the Billing agent agent to handle the request. ',
        kind: 'handoff',
        name: 'transfer_to_Billing_agent',
        parameters: {
          $schema: DRAFT_07,
          additionalProperties: false,
          properties: { order_id: { type: 'string' }, reason: { type: 'string' } },
          required: ['order_id', 'reason'],
          type: 'object',
        },
      },
    ]
    const billingTools = [
      {
        description: 'The invoice of an order.',
        kind: 'function',
        name: 'lookup_invoice',
        parameters: { $schema: DRAFT_07, additionalProperties: false, properties: { order_id: { type: 'string' } }, required: ['order_id'], type: 'object' },
      },
    ]
    expect(chain.trace.tool_sets).toEqual({ [toolSetId(triageTools)]: triageTools })
    expect(chain.trace.turns.map((turn) => turn.llm_call.tool_set)).toEqual([toolSetId(triageTools)])
    // Two model calls of the billing agent, one set.
    expect(billing.trace.tool_sets).toEqual({ [toolSetId(billingTools)]: billingTools })
    expect(billing.trace.turns.map((turn) => turn.llm_call.tool_set)).toEqual([toolSetId(billingTools), toolSetId(billingTools)])
  })

  it('records a hosted MCP server (hostedMcpTool) as an mcp tool by its label', async () => {
    const server = await startCannedServer(inOrder({ json: fixtureJson('openai-agents/hosted-mcp.json') }))
    const agent = new Agent({
      name: 'Wiki agent',
      model: new OpenAIResponsesModel(openaiClient(server), 'gpt-4.1'),
      tools: [hostedMcpTool({ serverLabel: 'wiki', serverUrl: 'https://wiki.example.com/mcp', requireApproval: 'never' })],
    })
    const s = await session('wiki', { save: false }, async () => (await run(agent, 'How are refunds issued in acme/shop?')).finalOutput)

    const tools = [{ description: null, kind: 'mcp', name: 'wiki', parameters: null, server: 'wiki' }]
    expect(s.trace.tool_sets).toEqual({ [toolSetId(tools)]: tools })
    expect(s.trace.turns.map((turn) => turn.llm_call.tool_set)).toEqual([toolSetId(tools)])
  })
})
