// test/support-chain.test.ts
import { wrapLanguageModel } from 'ai'
import { expect, test } from 'vitest'
import { loadChain, session } from 'reagent-flow'
import { reagentMiddleware } from 'reagent-flow/ai-sdk'
import { scriptedLanguageModel } from 'reagent-flow/fake'
import { supportAgent } from '../src/support-agents.js'

test('support hands a broken order to billing, which refunds it', async () => {
  const models = {
    support: wrapLanguageModel({
      model: scriptedLanguageModel([
        { toolCalls: [{ name: 'ask_billing', arguments: { order_id: '42' } }] },
        (request) => ({ text: `${request.messages.at(-1)!.content}` }), // passes billing's answer on
      ]),
      middleware: reagentMiddleware(),
    }),
    billing: wrapLanguageModel({
      model: scriptedLanguageModel([{ toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] }, { text: 'Refunded order 42.' }]),
      middleware: reagentMiddleware(),
    }),
  }

  const support = await session('support-agent', () => supportAgent(models, 'My order 42 arrived broken.'))

  // Every node of the chain has the assertion methods of a Session.
  expect(support.output).toBe('Refunded order 42.')
  support.assertFlow(['ask_billing'])
  const billing = loadChain(support).get('billing-agent')
  billing.assertHandoffReceived(support)
  billing.assertHandoffHasFields(['order_id', 'reason'])
  billing.assertCalledWith('issue_refund', { order_id: '42', amount: expect.any(Number) })
})
