import { describe, expect, it } from 'vitest'
import { internals } from '../src/session/internals.js'
import { Session, type SessionFeature } from '../src/session/session.js'
import type { TestScope } from '../src/session/test-scope.js'
import type { Trace } from '../src/trace/types.js'

/** A feature that writes down what it hears, as `<name>:<event>`. */
function listening(name: string, heard: string[]): SessionFeature {
  return {
    attach(session) {
      const { lifecycle } = session[internals]
      heard.push(`${name}:attach`)
      lifecycle.on('opened', () => heard.push(`${name}:opened`))
      lifecycle.on('turn', (index) => heard.push(`${name}:turn ${index}`))
      lifecycle.on('tool-result', (index, result) => heard.push(`${name}:tool-result ${index} ${JSON.stringify(result.result)}`))
      lifecycle.on('ended', (end) => heard.push(`${name}:ended ${end.status}`))
      lifecycle.on('closing', (trace, status) => heard.push(`${name}:closing ${status} ${trace.ended_at === null ? 'open' : 'final'}`))
      lifecycle.on('closed', (_trace, status) => heard.push(`${name}:closed ${status}`))
      lifecycle.on('amended', (trace) => heard.push(`${name}:amended golden=${String(trace.golden)}`))
    },
  }
}

function open(features: readonly SessionFeature[]): Session {
  return new Session('lifecycle', { save: false }, undefined, undefined, { features, testScope: undefined })
}

describe('the session lifecycle', () => {
  it('tells its features, in the order they attached, that it opened, what it recorded, how it ended and that it closed', async () => {
    const heard: string[] = []
    const s = open([listening('first', heard), listening('second', heard)])
    const [id] = s.logLlmCall({ toolCalls: [{ name: 'lookup', arguments: {} }] })
    s.logToolResult('lookup', { callId: id!, result: 42 })
    await s[internals].close({ ok: true, output: undefined })
    s[internals].askGolden()

    expect(heard).toEqual([
      'first:attach',
      'second:attach',
      'first:opened',
      'second:opened',
      'first:turn 0',
      'second:turn 0',
      'first:tool-result 0 42',
      'second:tool-result 0 42',
      'first:ended completed',
      'second:ended completed',
      'first:closing completed final',
      'second:closing completed final',
      'first:closed completed',
      'second:closed completed',
      'first:amended golden=true',
      'second:amended golden=true',
    ])
  })

  it('lets an ended listener change how the run ended, before the trace is final', async () => {
    const stopping: SessionFeature = {
      attach(session) {
        session[internals].lifecycle.on('ended', (end) => {
          end.status = 'cancelled'
          end.reason = 'stopped by a feature'
        })
      },
    }
    const s = open([stopping])
    await s[internals].close({ ok: true, output: undefined })

    expect([s.trace.status, s.trace.interruption_reason]).toEqual(['cancelled', 'stopped by a feature'])
  })

  it('closed from outside, skips ended: the features hear closing and closed, as cancelled', () => {
    const heard: string[] = []
    const s = open([listening('only', heard)])
    s[internals].closeNow('cancelled', 'the test ended first')

    expect(heard).toEqual(['only:attach', 'only:opened', 'only:closing cancelled final', 'only:closed cancelled'])
  })

  it('asks the gates of its features before a tool call, in the order they were added, and stops a logged model call past a gate', () => {
    const s = open([
      {
        attach(session) {
          session[internals].addGate({ beforeToolCall: (tool) => (tool === 'charge' ? { error: new Error('first'), injected: false } : undefined) })
          session[internals].addGate({
            beforeToolCall: () => ({ error: new Error('second'), injected: true }),
            afterModelCall: (_call, isAdmitted) => (isAdmitted ? undefined : new Error('past the limit')),
          })
        },
      },
    ])

    expect(s[internals].admitToolCall('charge')).toEqual({ error: new Error('first'), injected: false })
    expect(s[internals].admitToolCall('search')).toEqual({ error: new Error('second'), injected: true })
    expect(s[internals].recordModelCall({ responseText: 'admitted' })).toEqual([])
    expect(() => s.logLlmCall({ responseText: 'logged' })).toThrowError('past the limit')
    expect(s.trace.turns.map((turn) => turn.llm_call.response_text)).toEqual(['admitted', 'logged'])
  })

  it("tells its test scope of the run once it is closed, with its file, also when a feature's closed listener threw", () => {
    const runs: string[] = []
    const scope = {
      root: '/project',
      file: 'test/a.test.ts',
      testName: 'refunds',
      openSessions: new Set(),
      keys: new Map(),
      update: () => undefined,
      recordGolden: () => undefined,
      recordContract: () => undefined,
      goldensSummarized: () => false,
      recordPruned: () => undefined,
      recordRun: (trace: Trace, path: string | undefined) => runs.push(`${trace.name} ${trace.status} ${String(path)}`),
      explainFailure: () => undefined,
    } satisfies TestScope
    const throwing: SessionFeature = {
      attach(session) {
        session[internals].lifecycle.on('closed', () => {
          throw new Error('a bad REAGENT_UPDATE')
        })
      },
    }
    const s = new Session('refund', { save: false }, undefined, undefined, { features: [throwing], testScope: scope })
    expect(() => s[internals].closeNow('cancelled', 'the test ended first')).toThrowError('a bad REAGENT_UPDATE')
    expect(runs).toEqual(['refund cancelled undefined'])
  })
})
