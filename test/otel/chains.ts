/**
 * Chains of recorded runs for the OpenTelemetry tests: one recorded by the
 * Agents SDK adapter (a triage agent handing off to a billing agent), one
 * logged by hand with what the conventions have no place for (a failed run,
 * a failed LLM call, non-text content, arguments that are not JSON, a result
 * without a call, a handoff context, metadata, session and user ids).
 */
import { run } from '@openai/agents'
import { instrumentOpenAIAgents } from '../../src/entries/openai-agents.js'
import { loadChain, session, type ChainNode } from '../../src/entries/index.js'
import { inOrder, startCannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { chatModel, triageAgents, triageReplies } from '../adapters/openai-agents/triage-agents.js'

export async function agentsChain(): Promise<ChainNode> {
  instrumentOpenAIAgents()
  const server = await startCannedServer(inOrder(...triageReplies()))
  const traceDir = tempDir('otel-')
  const { triage } = triageAgents(chatModel(server))
  await session('support', { traceDir, sessionId: 'conversation-7', userId: 'user-42' }, () => run(triage, 'I was charged twice for order 42.'))
  return loadChain('support', { traceDir })
}

/** Written without redaction, so the key in its system message is in the file (as it would be in memory). */
export async function handLoggedChain(): Promise<ChainNode> {
  const traceDir = tempDir('otel-')
  await session(
    'planner',
    { traceDir, redact: false, metadata: { goal: 'plan a refund', budget_usd: 0.5 }, sessionId: 'conversation-9', userId: 'user-1' },
    async (s) => {
      const [searchId] = s.logLlmCall({
        messages: [
          { role: 'system', content: 'Plan. The key is sk-proj-abcdefghijklmnopqrstuvwxyz123456.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Go' },
              { type: 'image', source: 'a.png' },
            ],
          },
        ],
        toolCalls: [
          { name: 'search', arguments: { q: 'refund policy' } },
          { name: 'fetch', arguments: 'not json' },
        ],
        model: 'claude-sonnet-4-5',
        provider: 'anthropic',
        tokenUsage: { input_tokens: 10, output_tokens: 3, cache_read_input_tokens: 2 },
        stopReason: 'tool_use',
        latencyMs: 12,
      })
      s.logToolResult('search', { result: ['a', 'b'], callId: searchId!, durationMs: 4 })
      s.logToolResult('fetch', { error: new TypeError('bad url'), durationMs: 1 })
      s.logToolResult('ghost', { result: 1, callId: 'call_nobody_made' })
      s.logLlmCall({ responseText: '', error: new Error('overloaded'), model: null })
      await session('researcher', { traceDir, handoffContext: { topic: 'refunds', depth: 2 } }, (c) => {
        c.logLlmCall({ responseText: 'Found it.', model: 'gpt-4o', tokenUsage: { prompt_tokens: 5, completion_tokens: 2 } })
      })
      throw new RangeError('planner gave up')
    },
  ).catch(() => undefined)
  return loadChain('planner', { traceDir })
}
