import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Trace } from '../../src/entries/index.js'
import { buildTrace, type TurnSpec } from '../helpers/trace-builder.js'
import { spawnServe } from '../ledger/serve-process.js'
import { runCli, runCliAsync, runJson, traceDirWith } from './run-cli.js'

const AGENT = ['--agent', 'src/agent.ts#refundAgent']

/** A run whose first model call was sent `question`, as an adapter records it. */
function incident(name: string, turns: TurnSpec[], extra: Partial<Trace> = {}, question = 'Refund order 42, please.'): Trace {
  const trace = buildTrace(name, turns, extra)
  trace.turns[0]!.llm_call.messages = [
    { role: 'system', content: 'You are a refund agent.' },
    { role: 'user', content: [{ type: 'text', text: question }] },
  ]
  return trace
}

const REFUND: TurnSpec[] = [
  { calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { order_id: '42', amount: 19.99 } }], tokens: { input_tokens: 900, output_tokens: 40 } },
  { calls: [{ name: 'issue_refund', args: { order_id: '42', amount: 19.99 }, error: 'refunds are closed on Sundays' }] },
  { calls: [{ name: 'issue_refund', args: { order_id: '42', amount: 19.99 }, result: 'Refunded.' }] },
  { text: "Order 42 is refunded: $19.99. It's done." },
]

const written = (cwd: string, file = 'test/incidents/refund-agent.test.ts'): string => readFileSync(join(cwd, file), 'utf8')

describe('reagent-flow scaffold', () => {
  it('writes a test for the AI SDK with each tool answer in order (errors too) and the tools each call offered, and says what it wrote with --json', () => {
    const toolSets = {
      ts_000000000001: [
        { name: 'lookup_order', kind: 'function', description: 'Find an order', parameters: null },
        { name: 'escalate', kind: 'handoff', description: null, parameters: null },
      ],
      ts_000000000002: [{ name: 'issue_refund', kind: 'function', description: null, parameters: null }],
    }
    const trace = incident('refund-agent', REFUND, { tool_sets: toolSets } as Partial<Trace>)
    for (const [i, turn] of trace.turns.entries())
      Object.assign(turn.llm_call, { provider: 'openai.chat', tool_set: i === 0 ? 'ts_000000000001' : 'ts_000000000002' })
    const cwd = traceDirWith([trace])

    const { code, json } = runJson(['scaffold', 'refund-agent', ...AGENT, '--out', 'test/agents'], cwd)

    expect(code).toBe(0)
    expect(json).toEqual({
      test_file: 'test/agents/refund-agent.test.ts',
      golden_file: '.reagent/golden/test/agents/refund-agent.test.ts/does_what_it_did_in_run_refund-agent.trace.json',
      sdk: 'ai-sdk',
      run: { name: 'refund-agent', trace_id: 'trace-refund-agent', origin: 'trace file .reagent/refund-agent.trace.json' },
      model_answers: 4,
      tool_results: 3,
      flow: ['lookup_order', 'issue_refund', 'issue_refund'],
    })
    expect(written(cwd, 'test/agents/refund-agent.test.ts').split('\n').slice(15)).toEqual([
      "import { expect } from 'vitest'",
      "import { scriptedLanguageModel, scriptedTools } from 'reagent-flow/fake'",
      "import { test } from 'reagent-flow/vitest'",
      "import { refundAgent } from '../../src/agent.js'",
      '',
      "// The agent's input in the run: the first user message of its first model call.",
      "const input = 'Refund order 42, please.'",
      '',
      "test('does what it did in run refund-agent', async ({ agentSession }) => {",
      "  // The model's answers in the run, one per model call.",
      '  const model = scriptedLanguageModel([',
      '    {',
      "      toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }],",
      '      usage: { inputTokens: 900, outputTokens: 40 },',
      '    },',
      "    { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] },",
      "    { toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount: 19.99 } }] },",
      "    { text: 'Order 42 is refunded: $19.99. It\\'s done.' },",
      '  ])',
      "  // The tools' results in the run, call by call.",
      '  const tools = scriptedTools({',
      "    lookup_order: [{ result: { order_id: '42', amount: 19.99 } }],",
      "    issue_refund: [{ error: 'refunds are closed on Sundays' }, { result: 'Refunded.' }],",
      '  })',
      '',
      '  const s = await agentSession(() => refundAgent(input, { model, tools }))',
      '',
      "  expect(s).toMatchFlow(['lookup_order', 'issue_refund', 'issue_refund'])",
      '  // The tools each model call offered in the run.',
      '  expect(model.requests.map((request) => request.tools.map((tool) => tool.name).sort())).toEqual([',
      "    ['lookup_order'],",
      "    ['issue_refund'],",
      "    ['issue_refund'],",
      "    ['issue_refund'],",
      '  ])',
      '  // The run is the golden. The scripted model answers as whichever model the agent asks for, so model names are not compared.',
      "  expect(s).toMatchGolden({ ignore: ['model'] })",
      '})',
      '',
    ])
    const golden = JSON.parse(readFileSync(join(cwd, json.golden_file as string), 'utf8')) as Trace
    expect([golden.name, golden.test_file, golden.test_key, golden.trace_id]).toEqual([
      'does what it did in run refund-agent',
      'test/agents/refund-agent.test.ts',
      'does what it did in run refund-agent',
      'golden',
    ])
  })

  it('gives LangChain agents scriptedChatModel with --sdk, and a default export as `agent`', () => {
    const cwd = traceDirWith([incident('refund-agent', REFUND)])

    expect(runCli(['scaffold', 'refund-agent', '--agent', './lib/agent.mjs#default', '--sdk', 'langchain', '--name', 'sunday refund'], cwd).code).toBe(0)

    const lines = written(cwd, 'test/incidents/sunday_refund.test.ts').split('\n')
    expect(lines.filter((line) => line.startsWith('import') || line.includes('agentSession('))).toEqual([
      "import { expect } from 'vitest'",
      "import { scriptedTools } from 'reagent-flow/fake'",
      "import { scriptedChatModel } from 'reagent-flow/fake/langchain'",
      "import { test } from 'reagent-flow/vitest'",
      "import agent from '../../lib/agent.mjs'",
      '  const s = await agentSession(() => agent(input, { model, tools }))',
    ])
  })

  it('scripts an Anthropic run with scriptedFetch, and answers a call whose result was never recorded with an error saying so', () => {
    const trace = incident('refund-agent', [{ calls: [{ name: 'lookup_order', args: { order_id: '42' }, noResult: true }] }, { text: 'Sorry.' }])
    for (const turn of trace.turns) turn.llm_call.provider = 'anthropic'
    const cwd = traceDirWith([trace])

    const { code, stdout } = runCli(['scaffold', 'refund-agent', ...AGENT], cwd)

    expect(code).toBe(0)
    expect(stdout.split('\n')[1]).toBe('  2 model answers (scripted for anthropic), 1 tool result, flow: lookup_order')
    expect(
      written(cwd)
        .split('\n')
        .filter((line) => /scriptedFetch|scriptedTools\(|agentSession\(/.test(line)),
    ).toEqual([
      "import { scriptedFetch, scriptedTools } from 'reagent-flow/fake'",
      '  const fetch = scriptedFetch([',
      "  const tools = scriptedTools({ lookup_order: [{ error: 'the incident recorded no result for this call' }] })",
      '  const s = await agentSession(() => refundAgent(input, { fetch, tools }))',
    ])
  })

  it('refuses a run with a model call that recorded neither text nor tool calls, naming the turn, and writes nothing', () => {
    const cwd = traceDirWith([incident('refund-agent', [REFUND[0]!, {}, REFUND[3]!])])

    expect(runCli(['scaffold', 'refund-agent', ...AGENT], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reagent-flow scaffold: Run "refund-agent" cannot become a test: turn 2 recorded neither response text nor tool calls, so a scripted model would not know what to answer there. ' +
        'Scaffold a run whose model calls recorded their answers (for OpenTelemetry spans, export them with their content: the GenAI content attributes).\n',
    })
    expect(existsSync(join(cwd, 'test'))).toBe(false)
  })

  it('refuses a run whose model call failed, with the error it recorded', () => {
    const trace = incident('refund-agent', [REFUND[0]!, {}])
    trace.turns[1]!.llm_call.error = { name: 'RateLimitError', message: '429 Rate limit reached.' }

    expect(runCli(['scaffold', 'refund-agent', ...AGENT], traceDirWith([trace])).stderr).toContain(
      'Run "refund-agent" cannot become a test: turn 2 failed (RateLimitError: 429 Rate limit reached.) and recorded no answer,',
    )
  })

  it('refuses a run whose input is unknown (no messages recorded)', () => {
    const cwd = traceDirWith([buildTrace('refund-agent', REFUND)])

    expect(runCli(['scaffold', 'refund-agent', ...AGENT], cwd).stderr).toContain(
      'Run "refund-agent" cannot become a test: turn 1 recorded no messages (the input the agent got is unknown),',
    )
  })

  it('needs --agent as <module>#<export>', () => {
    const cwd = traceDirWith([incident('refund-agent', REFUND)])

    expect(runCli(['scaffold', 'refund-agent'], cwd).stderr).toBe(
      'reagent-flow scaffold: scaffold needs the agent the test calls: pass --agent <module>#<export>, e.g. --agent src/agent.ts#refundAgent\n',
    )
    expect(runCli(['scaffold', 'refund-agent', '--agent', 'src/agent.ts'], cwd).stderr).toBe(
      'reagent-flow scaffold: --agent "src/agent.ts" does not name a module and its export; pass <module>#<export>, e.g. --agent src/agent.ts#refundAgent (or #default)\n',
    )
  })

  it('never replaces a test or golden without --force', () => {
    const cwd = traceDirWith([incident('refund-agent', REFUND)])
    expect(runCli(['scaffold', 'refund-agent', ...AGENT], cwd).code).toBe(0)
    writeFileSync(join(cwd, 'test/incidents/refund-agent.test.ts'), '// edited\n')

    expect(runCli(['scaffold', 'refund-agent', ...AGENT], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr: `reagent-flow scaffold: ${join('test', 'incidents', 'refund-agent.test.ts')} exists already; pass --force to replace it, or --name to write another test\n`,
    })
    expect(written(cwd)).toBe('// edited\n')
    expect(runCli(['scaffold', 'refund-agent', ...AGENT, '--force'], cwd).code).toBe(0)
    expect(written(cwd)).toContain("test('does what it did in run refund-agent'")
  })

  it('refuses an OpenTelemetry file of several agent runs, naming them', () => {
    const cwd = traceDirWith([incident('refund-agent', REFUND), incident('search-agent', [{ text: 'found it' }])])
    const spans = ['refund-agent', 'search-agent'].map((run) => runCli(['export', run, '--otlp', '--include-content'], cwd).stdout)
    writeFileSync(join(cwd, 'spans.json'), spans.join(''))

    expect(runCli(['scaffold', 'spans.json', ...AGENT], cwd).stderr).toBe(
      'reagent-flow scaffold: spans.json holds 2 agent runs: "refund-agent" (trace-refund-agent), "search-agent" (trace-search-agent); scaffold takes one. ' +
        'Run "reagent-flow import" on it, then scaffold the run you mean by its name or trace_id.\n',
    )
  })

  it('says when the ledger has no such run', async () => {
    const cwd = traceDirWith([])
    const ledger = await spawnServe(['--store', join(cwd, 'store')], cwd)

    const { code, stderr } = await runCliAsync(['scaffold', '01NOPE', '--ledger', ledger.url, ...AGENT], cwd)

    expect([code, stderr]).toEqual([
      2,
      `reagent-flow scaffold: the ledger at ${ledger.url} has no run "01NOPE": trace.get: no run "01NOPE" in namespace "default" of org "local"; run.begin opens one, run.list shows the ones there are\n`,
    ])
  })
})
