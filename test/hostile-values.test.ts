/**
 * Whatever the agent throws or logs, the recorder never throws because of a
 * value: the agent's own error is rethrown as the very same value, every log
 * call records (with stand-ins), and the trace written is one our loader reads.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadTrace, session } from '../src/entries/index.js'
import { tempDir } from './helpers/temp-dir.js'

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}

function circularWithoutPrototype(): object {
  const value = Object.create(null) as Record<string, unknown>
  value.self = value
  value.note = 'loop'
  return value
}

class MessageBomb extends Error {
  override get message(): string {
    throw new Error('no message for you')
  }
}

const thrown: Array<[string, () => unknown, { name: string; message: string }]> = [
  ['a null-prototype circular object', circularWithoutPrototype, { name: 'Error', message: '{"self":"[Circular]","note":"loop"}' }],
  ['an Error whose message getter throws', () => new MessageBomb(), { name: 'MessageBomb', message: '[the message could not be read]' }],
  ['a revoked Proxy', revokedProxy, { name: 'Error', message: "[Unreadable: Cannot perform 'IsArray' on a proxy that has been revoked]" }],
  ['a symbol', () => Symbol('boom'), { name: 'Error', message: 'Symbol(boom)' }],
  ['a BigInt', () => 10n, { name: 'Error', message: '10' }],
  ['undefined', () => undefined, { name: 'Error', message: 'null' }],
  [
    'an object with a throwing getter',
    () => ({
      get reason(): string {
        throw new Error('getter')
      },
    }),
    { name: 'Error', message: '{"reason":"[Thrown: getter]"}' },
  ],
]

describe('a session whose function throws a hostile value', () => {
  it.each(thrown)('rethrows %s as the very same value and writes the trace', async (_, make, recorded) => {
    const traceDir = tempDir()
    const value = make()
    let caught: unknown = 'nothing thrown'
    try {
      await session('hostile', { traceDir }, (s) => {
        s.logLlmCall({ toolCalls: [{ name: 'lookup', arguments: { id: 1 } }] })
        throw value
      })
    } catch (error) {
      caught = error
    }
    expect(caught).toBe(value)
    const trace = loadTrace(join(traceDir, 'hostile.trace.json'))
    expect(trace.status).toBe('failed')
    expect({ name: trace.error!.name, message: trace.error!.message }).toEqual(recorded)
    expect(trace.turns).toHaveLength(1)
  })
})

describe('hostile values in log calls', () => {
  it('records each with a stand-in, never throwing, and writes a file the loader reads', async () => {
    const traceDir = tempDir()
    const noRole = {
      get role(): string {
        throw new Error('no role')
      },
      content: 'hi',
    }
    const s = await session('hostile-logs', { traceDir }, (s) => {
      s.logLlmCall({
        messages: [noRole, revokedProxy(), 'plain text'],
        responseText: Object.create(null) as unknown as string,
        model: revokedProxy() as unknown as string,
        tokenUsage: {
          get input_tokens(): number {
            throw new Error('no tokens')
          },
        },
        toolCalls: [
          {
            get name(): string {
              throw new Error('no name')
            },
            arguments: { a: 1 },
          },
          {
            name: 'search',
            get arguments(): unknown {
              throw new Error('no args')
            },
          },
          { name: 'fetch', arguments: '{"url":"x"', callId: 'c3' },
        ],
        timestamp: Number.POSITIVE_INFINITY,
        latencyMs: Number.NaN,
        stopReason: Symbol('stop') as unknown as string,
        error: revokedProxy(),
      })
      s.logToolResult('search', { result: circularWithoutPrototype(), error: revokedProxy(), durationMs: Number.NEGATIVE_INFINITY })
      s.logToolResult('fetch', { callId: 'c3', error: new MessageBomb(), result: 10n })
      s.logLlmCall({
        get tokenUsage(): never {
          throw new Error('usage getter')
        },
        responseText: 'done',
      } as never)
    })
    const trace = loadTrace(join(traceDir, 'hostile-logs.trace.json'))
    const [first, second] = trace.turns
    expect(first!.llm_call.messages).toEqual([
      { role: '[Thrown: no role]', content: 'hi' },
      { role: "[Thrown: Cannot perform 'get' on a proxy that has been revoked]", content: "[Thrown: Cannot perform 'get' on a proxy that has been revoked]" },
      { role: 'user', content: 'plain text' },
    ])
    expect(first!.llm_call).toMatchObject({
      response_text: '{}',
      model: "[Unreadable: Cannot perform 'IsArray' on a proxy that has been revoked]",
      token_usage: null,
      stop_reason: 'Symbol(stop)',
      error: { name: 'Error', message: "[Unreadable: Cannot perform 'IsArray' on a proxy that has been revoked]" },
    })
    expect(first!.llm_call.latency_ms).toBeUndefined()
    expect(first!.llm_call.timestamp).toBeGreaterThan(1_700_000_000)
    expect(first!.llm_call.tool_calls.map((call) => [call.name, call.arguments])).toEqual([
      ['[Thrown: no name]', { a: 1 }],
      ['search', { _value: '[Thrown: no args]' }],
      ['fetch', { _raw_arguments: '{"url":"x"' }],
    ])
    expect(first!.tool_results.map(({ result, error, duration_ms }) => ({ result, error, duration_ms }))).toEqual([
      { result: { self: '[Circular]', note: 'loop' }, error: "[Unreadable: Cannot perform 'IsArray' on a proxy that has been revoked]", duration_ms: 0 },
      { result: '10', error: 'MessageBomb: [the message could not be read]', duration_ms: 0 },
    ])
    expect(second!.llm_call).toMatchObject({ token_usage: null, response_text: 'done' })
    expect(s.status).toBe('completed')
  })

  it('still throws a TypeError for a call of the wrong shape', async () => {
    await session('shapes', { traceDir: tempDir() }, (s) => {
      expect(() => s.logLlmCall(42 as never)).toThrow(TypeError)
      expect(() => s.logToolResult('x', 'a bare value' as never)).toThrow(
        'logToolResult("x", ...) takes { result, error, callId, durationMs } as its second argument, got the string "a bare value". Wrap the value: logToolResult("x", { result: value }).',
      )
    })
  })

  it.each([
    ['sessionId', 42, 'session() option "sessionId" must be a string, got the number 42.'],
    ['parentTraceId', 123, 'session() option "parentTraceId" must be a trace_id (a non-empty string) or null, got the number 123.'],
    ['metadata', 'goal', 'session() option "metadata" must be an object, got string.'],
    ['journal', 'yes', 'session() option "journal" must be true or false, got string.'],
  ])('refuses the option %s of the wrong type, naming it', async (option, value, message) => {
    await expect(session('options', { [option]: value } as never, () => undefined)).rejects.toThrow(new TypeError(message))
  })
})
