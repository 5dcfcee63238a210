import { run } from '@openai/agents'
import { describe, expect, it } from 'vitest'
import { instrumentOpenAIAgents } from '../../../adapters/openai-agents/index.js'
import { loadChain, session } from '../../../src/index.js'
import { inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { chatModel, triageAgents, triageReplies } from './triage-agents.js'

instrumentOpenAIAgents()

describe('instrumentOpenAIAgents: a triage run that hands off to a billing agent', () => {
  it('records the triage agent in the session, the billing agent as its child with the handoff input as handoff_context', async () => {
    const server = await startCannedServer(inOrder(...triageReplies()))
    const traceDir = tempDir('agents-')
    const { triage } = triageAgents(chatModel(server))

    const s = await session('support', { traceDir }, async () => (await run(triage, 'I was charged twice for order 42.')).finalOutput)

    expect(s.output).toBe('Order 42 was charged twice; I refunded the second charge of $19.99.')
    const chain = loadChain('support', { traceDir })
    console.log(JSON.stringify(chain.trace, null, 1))
    console.log(JSON.stringify(chain.get('Billing agent').trace, null, 1))
  })
})
