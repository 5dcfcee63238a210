import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveDiffOptions } from '../../src/diff/options.js'
import { reconcile, renderGolden } from '../../src/golden/index.js'
import { loadTrace, repeat, session, traceTool, type Session } from '../../src/entries/index.js'
import { saveTrace } from '../../src/entries/files.js'
import { tempDir } from '../helpers/temp-dir.js'
import { inOrder, startCannedServer } from '../helpers/canned-server.js'
import { json, openaiClient, WEATHER_TOOL_SET } from '../adapters/openai/helpers.js'
import { runChatAgent } from '../adapters/openai/weather-agent.js'

const LOADER = join(import.meta.dirname, 'load_like_reagent_flow_05.py')
const CONVERSATION_FIXTURE = join(import.meta.dirname, '../../fixtures/traces/conversation/support-conversation.trace.json')
const hasPython = spawnSync('python3', ['--version']).status === 0

/** Uses every optional field we add, so the check covers all of them. */
async function everythingAgent(s: Session): Promise<void> {
  const [a, b] = s.logLlmCall({
    messages: [{ role: 'user', content: 'go', name: 'ignored-extra' }],
    toolCalls: [
      { name: 'search', arguments: { q: 'x' }, callId: 'toolu_01' },
      { name: 'search', arguments: '{"q": "y"}' },
    ],
    model: 'claude-sonnet-4',
    tokenUsage: { input_tokens: 5, output_tokens: 6, cache_read_input_tokens: 2 },
    latencyMs: 3,
    stopReason: 'tool_use',
    provider: 'anthropic',
  })
  s.logToolResult('search', { callId: a!, result: { hits: [1] } })
  s.logToolResult('search', { callId: b!, error: new Error('timeout') })
  s.logToolResult('search', { result: 'orphan' })
  // The same conversation, one message longer: written as the new message and messages_base.
  s.logLlmCall({
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'searching' },
    ],
    error: new Error('500 from provider'),
  })
}

describe.runIf(hasPython)('files we write, read the way reagent-flow 0.5 reads them', () => {
  it('load for runs, failed runs, children and goldens', async () => {
    const traceDir = tempDir()
    await session('everything', { traceDir, metadata: { goal: 'g' }, sessionId: 's', userId: 'u' }, everythingAgent)
    await session('everything', { traceDir, golden: true }, everythingAgent)
    await session('parent', { traceDir }, async () => {
      await session('child', { traceDir, handoffContext: { topic: 't' } }, everythingAgent)
    })
    await session('failed', { traceDir }, async (s) => {
      await everythingAgent(s)
      throw new Error('agent crashed')
    }).catch(() => undefined)
    await session('orphan-first', { traceDir }, (s) => s.logToolResult('early', { result: 1 }))

    const files = [
      ...readdirSync(traceDir)
        .filter((f) => f.endsWith('.trace.json'))
        .map((f) => join(traceDir, f)),
      join(traceDir, 'golden', 'everything.trace.json'),
    ]
    expect(files).toHaveLength(6)
    const output = execFileSync('python3', [LOADER, ...files], { encoding: 'utf8' })
    expect(
      output
        .trim()
        .split('\n')
        .every((line) => line.startsWith('ok ')),
    ).toBe(true)
  })

  it('load for golden variants (as their first variant), injected faults, runs stopped by limits, and repeated runs', async () => {
    const traceDir = tempDir()
    const charge = traceTool('charge_card', () => 'charged')
    const agent = (answer: string) => (s: Session) => {
      s.logLlmCall({ toolCalls: [{ name: 'charge_card', arguments: { order: '42' } }], model: 'gpt-4o' })
      try {
        charge()
      } catch {
        // the injected fault
      }
      s.logLlmCall({ responseText: answer, model: 'gpt-4o' })
    }
    await session('variants', { traceDir, golden: true }, agent('Charged.'))
    const variant = await session('variants', { save: false }, agent('Done, charged.'))
    const recorded = renderGolden(variant.trace)
    const golden = join(traceDir, 'golden', 'variants.trace.json')
    writeFileSync(golden, reconcile(recorded, { path: golden, text: readFileSync(golden, 'utf8') }, 'all', resolveDiffOptions({}), 'add').text)
    await session('faulted', { traceDir, faults: [{ tool: 'charge_card', error: 'card declined' }] }, agent('Declined.'))
    await session('stopped', { traceDir, limits: { turns: 1 } }, agent('never')).catch(() => undefined)
    const runs = await repeat(2, 'repeated', { traceDir }, agent('Charged.'))

    const files = [golden, join(traceDir, 'faulted.trace.json'), join(traceDir, 'stopped.trace.json'), ...runs.runs.map((run) => run.path!)]
    expect(JSON.parse(readFileSync(golden, 'utf8')).variants).toHaveLength(1)
    const output = execFileSync('python3', [LOADER, ...files], { encoding: 'utf8' })
    expect(output.trim().split('\n')).toEqual(files.map((file) => expect.stringMatching(new RegExp(`^ok ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))))
  })

  it('load a run of conversation() and its golden, skipping the conversation as any top-level key it does not know', () => {
    const traceDir = tempDir()
    // Read and written again by us: what a recorded conversation's run file holds.
    const run = saveTrace(loadTrace(CONVERSATION_FIXTURE), { traceDir })
    const golden = join(traceDir, 'support-conversation.golden.json')
    writeFileSync(golden, renderGolden(loadTrace(CONVERSATION_FIXTURE)).text)
    const files = [CONVERSATION_FIXTURE, run, golden]
    const output = execFileSync('python3', [LOADER, ...files], { encoding: 'utf8' })
    expect(output).toBe(
      [
        `ok ${CONVERSATION_FIXTURE} (5 turns; skipped: conversation, error, status)`,
        `ok ${run} (5 turns; skipped: conversation, error, status)`,
        `ok ${golden} (5 turns; skipped: conversation, error, status)`,
        '',
      ].join('\n'),
    )
  })

  it('load a run whose calls offered tools, skipping tool_sets as any top-level key it does not know, and its golden', async () => {
    const server = await startCannedServer(inOrder(json('chat/tool-call.json'), json('chat/final-answer.json')))
    const traceDir = tempDir()
    const s = await session('tools-offered', { traceDir, golden: true }, () => runChatAgent(openaiClient(server), 'What is the weather in Paris?'))
    expect(s.trace.turns.map((turn) => turn.llm_call.tool_set)).toEqual([WEATHER_TOOL_SET, WEATHER_TOOL_SET])
    const golden = join(traceDir, 'golden', 'tools-offered.trace.json')
    const output = execFileSync('python3', [LOADER, s.path!, golden], { encoding: 'utf8' })
    expect(output).toBe(
      [
        `ok ${s.path} (2 turns; skipped: error, golden, session_id, status, tool_sets, user_id)`,
        `ok ${golden} (2 turns; skipped: error, session_id, status, user_id)`,
        '',
      ].join('\n'),
    )
  })

  it('rejects a tool result with an extra key, as reagent-flow 0.5 does', () => {
    const result = spawnSync('python3', [LOADER, join(import.meta.dirname, '../../fixtures/traces/invalid/extra-key-on-tool-result.trace.json')], {
      encoding: 'utf8',
    })
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("TypeError: ToolResult.__init__() got an unexpected keyword argument 'name'")
  })
})
