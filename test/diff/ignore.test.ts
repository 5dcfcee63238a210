import { describe, expect, it } from 'vitest'
import { Session, type Trace } from '../../src/entries/index.js'
import { diffTraces } from '../../src/entries/diff.js'
import { scriptTrace } from '../helpers/script-trace.js'

const expected = scriptTrace([
  ['lookup', { id: 1, request: { ts: 100, trace: 'a' } }, { order: { amount: 5, fetched_at: 1 } }],
  { name: 'charge', args: { amount: 5 }, error: 'timeout after 31ms' },
  'Done.',
])
const actual = scriptTrace([
  ['lookup', { id: 1, request: { ts: 200, trace: 'b' } }, { order: { amount: 5, fetched_at: 2 } }],
  { name: 'charge', args: { amount: 5 }, error: 'timeout after 30ms' },
  'Done!',
])

const paths = (ignore: string[]): string[] => diffTraces(expected, actual, { ignore }).changes.map((c) => c.path)

const all = [
  'turns[0].llm_call.tool_calls[0].arguments.request.ts',
  'turns[0].llm_call.tool_calls[0].arguments.request.trace',
  'turns[0].tool_results[0].result.order.fetched_at',
  'turns[1].tool_results[0].error',
  'turns[2].llm_call.response_text',
]

describe('diffTraces() ignore', () => {
  it('compares tool arguments, results, errors and response text by default', () => {
    expect(paths([])).toEqual(all)
  })

  it.each<[string[], string[]]>([
    [['arguments'], all.slice(2)],
    [['results'], [...all.slice(0, 2), all[4]!]],
    [['errors'], [...all.slice(0, 3), all[4]!]],
    [['response_text'], all.slice(0, 4)],
    [['lookup.request'], all.slice(2)],
    [['lookup.request.ts'], all.slice(1)],
    [['charge.amount', 'search.q'], all],
    [['turns[*].tool_results[*].result.order.fetched_at'], [...all.slice(0, 2), ...all.slice(3)]],
    [['turns[0].llm_call.tool_calls[*].arguments.request'], all.slice(2)],
    [['turns[1]'], [...all.slice(0, 3), all[4]!]],
    [['turns[*].tool_results'], [...all.slice(0, 2), all[4]!]],
    [['turns[*].llm_call["response_text"]'], all.slice(0, 4)],
  ])('ignores %j', (ignore, remaining) => {
    expect(paths(ignore)).toEqual(remaining)
  })

  it('ignores a whole turn on both sides, so the others still line up', () => {
    const withExtra = scriptTrace([
      ['ping', {}, 'pong'],
      ['lookup', { id: 1 }, 1],
    ])
    const without = scriptTrace([
      ['status', {}, 'ok'],
      ['lookup', { id: 1 }, 1],
    ])
    expect(diffTraces(withExtra, without, { ignore: ['turns[0]'] }).equal).toBe(true)
  })

  it('never compares ids, timestamps, durations, token usage, messages but the system prompt, or metadata', () => {
    const record = (model: string, tokens: number, metadata: Record<string, unknown>): Trace => {
      const s = new Session('agent', { save: false, metadata, sessionId: model, userId: model })
      const [id] = s.logLlmCall({
        toolCalls: [{ name: 'lookup', arguments: { id: 1 }, callId: `call_${model}` }],
        model,
        tokenUsage: { input_tokens: tokens, output_tokens: tokens },
        messages: [{ role: 'user', content: `hello from run ${tokens}` }],
        latencyMs: tokens,
        stopReason: 'tool_calls',
        timestamp: tokens,
      })
      s.logToolResult('lookup', { callId: id!, result: { ok: true }, durationMs: tokens })
      s.logLlmCall({ responseText: 'Done.', model })
      return s.trace
    }
    expect(diffTraces(record('gpt-4o', 10, { run: 1 }), record('claude', 99, { run: 2 }), { ignore: ['model'] }).equal).toBe(true)
    expect(diffTraces(record('gpt-4o', 10, { run: 1 }), record('gpt-4o', 99, { run: 2 })).equal).toBe(true)
  })

  it.each<[string, unknown, Error]>([
    ['not an array', 'results', new TypeError('diffTraces() option "ignore" must be an array of strings; got "results".')],
    ['a number inside', [1], new TypeError('diffTraces() option "ignore" must hold strings only; got number.')],
    [
      'an unknown name',
      ['result'],
      new RangeError(
        'diffTraces() option "ignore": "result" is not something to ignore. Valid entries: "arguments", "results", "errors", "response_text", "model", "system_prompt", "tool.arg" (an argument of one tool), or a JSON path starting with "turns[".',
      ),
    ],
    [
      'a broken path',
      ['turns[x].a'],
      new RangeError(
        'diffTraces() option "ignore": "turns[x].a" is not a JSON path. Write it like "turns[*].tool_results[0].result.id" ([*] matches any index).',
      ),
    ],
  ])('rejects %s', (_, ignore, error) => {
    expect(() => diffTraces(expected, actual, { ignore: ignore as never })).toThrowError(error)
  })

  it('rejects an unknown option, listing the valid ones', () => {
    expect(() => diffTraces(expected, actual, { ignoreFields: [] } as never)).toThrowError(
      new TypeError('Unknown diffTraces() option "ignoreFields". Valid options: mode, args, ignore.'),
    )
  })
})
