// scripts/show-chain.ts
import { wrapLanguageModel } from 'ai'
import { loadChain, session } from 'reagent-flow'
import { reagentMiddleware } from 'reagent-flow/ai-sdk'
import { scriptedLanguageModel } from 'reagent-flow/fake'
import { supportAgent } from '../src/support-agents.js'

// Scripted models keep this script offline; a real run passes openai('gpt-4o') and openai('gpt-4o-mini').
const scripted = (script: Parameters<typeof scriptedLanguageModel>[0]) => wrapLanguageModel({ model: scriptedLanguageModel(script), middleware: reagentMiddleware() })
const models = {
  support: scripted([{ toolCalls: [{ name: 'ask_billing', arguments: { order_id: '42' } }] }, { text: 'Billing refunded your order.' }]),
  billing: scripted([{ toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] }, { text: 'Refunded order 42.' }]),
}
const support = await session('support-agent', () => supportAgent(models, 'My order 42 arrived broken.'))

// Read back from .reagent/: the trace with this trace_id (or name) and every trace it started.
for (const agent of loadChain(support.traceId).flatten()) {
  const handoff = JSON.stringify(agent.trace.handoff_context)
  console.log(`${'  '.repeat(agent.depth)}${agent.name}  id=${agent.traceId}  parent=${agent.trace.parent_trace_id}  tools=${agent.toolNames()}  handoff=${handoff}`)
}
