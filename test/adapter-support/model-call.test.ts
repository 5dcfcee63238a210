import { describe, expect, it } from 'vitest'
import {
  resetAdapterWarnings,
  SESSION_CLOSED,
  startModelCall,
  type ModelApi,
  type ModelRequest,
  type ModelResponse,
  type Session,
  type StreamFold,
} from '../../src/adapter-support/index.js'
import { session, type LlmCall } from '../../src/entries/index.js'
import { captureWarnings } from '../helpers/warnings.js'

/** A fold over text events; `lastEvent` is the event "end", and `canTell: false` makes it a stream whose end is not handed out. */
class TextFold implements StreamFold<string> {
  readonly lastEvent = 'end'
  #text = ''
  #sawEnd = false
  readonly #canTell: boolean
  constructor(canTell: boolean) {
    this.#canTell = canTell
  }
  get isComplete(): boolean | undefined {
    return this.#canTell ? this.#sawEnd : undefined
  }
  add(event: string): void {
    if (event === 'explode') throw new Error('fold broken')
    if (event === 'end') this.#sawEnd = true
    else this.#text += event
  }
  result(): ModelResponse {
    return { toolCalls: [], responseText: this.#text === '' ? null : this.#text, model: null, tokenUsage: null, stopReason: null }
  }
}

function api(overrides: Partial<ModelApi<ModelRequest, ModelResponse, string>> = {}): ModelApi<ModelRequest, ModelResponse, string> {
  return {
    adapter: 'test-adapter',
    operation: 'a test call',
    request: (request) => request,
    response: (response) => response,
    stream: () => new TextFold(true),
    ...overrides,
  }
}

const REQUEST: ModelRequest = { provider: 'test-provider', model: 'asked-model', messages: [{ role: 'user', content: 'hi' }] }

const answer = (text: string): ModelResponse => ({
  toolCalls: [],
  responseText: text,
  model: 'answering-model',
  tokenUsage: { input_tokens: 3, output_tokens: 1 },
  stopReason: 'stop',
})

function start(s: Session, overrides: Partial<ModelApi<ModelRequest, ModelResponse, string>> = {}, request: ModelRequest = REQUEST) {
  const call = startModelCall(s, api(overrides), request)
  if (call === undefined) throw new Error('the call did not start')
  return call
}

const calls = (s: Session): LlmCall[] => s.trace.turns.map((turn) => turn.llm_call)

describe('ModelCall: one model call, recorded once', () => {
  it('records a whole response with the request, the provider, its start time and latency', async () => {
    let startedAt = 0
    const s = await session('whole', { save: false }, async (s) => {
      startedAt = Date.now() / 1000
      const call = start(s)
      await new Promise((resolve) => setTimeout(resolve, 15))
      call.receive(answer('Hello.'))
      call.receive(answer('again'))
      call.fail(new Error('too late'))
    })

    expect(calls(s)).toEqual([
      {
        messages: [{ role: 'user', content: 'hi' }],
        response_text: 'Hello.',
        tool_calls: [],
        model: 'answering-model',
        token_usage: { input_tokens: 3, output_tokens: 1 },
        timestamp: expect.any(Number),
        latency_ms: expect.any(Number),
        stop_reason: 'stop',
        provider: 'test-provider',
      },
    ])
    expect(calls(s)[0]!.timestamp).toBeGreaterThanOrEqual(startedAt - 0.01)
    expect(calls(s)[0]!.latency_ms).toBeGreaterThanOrEqual(10)
  })

  it('falls back to the model asked for, and leaves provider out when it is unknown', async () => {
    const s = await session('fallback', { save: false }, (s) => start(s, {}, { ...REQUEST, provider: null }).receive({ ...answer('x'), model: null }))
    expect(calls(s)[0]!.model).toBe('asked-model')
    expect(calls(s)[0]).not.toHaveProperty('provider')
  })

  it('records the tool results a request hands back, only for calls of the session without one', async () => {
    const built: string[] = []
    const outcome = (id: string) => () => {
      built.push(id)
      return { result: `result of ${id}` }
    }
    const s = await session('tool-results', { save: false }, (s) => {
      const [first] = s.logLlmCall({ toolCalls: [{ name: 'lookup', arguments: {}, callId: 'c1' }] })
      s.logToolResult('lookup', { callId: first!, result: 'exact' })
      s.logLlmCall({ toolCalls: [{ name: 'refund', arguments: {}, callId: 'c2' }] })
      start(
        s,
        {},
        {
          ...REQUEST,
          toolResults: [
            { callId: 'c1', outcome: outcome('c1') },
            { callId: 'c2', outcome: outcome('c2') },
            { callId: 'elsewhere', outcome: outcome('elsewhere') },
          ],
        },
      ).receive(answer('done'))
    })
    expect(built).toEqual(['c2'])
    expect(s.trace.turns.map((turn) => turn.tool_results.map((r) => r.result))).toEqual([['exact'], ['result of c2'], []])
  })

  it('records a call whose SDK throws at once as failed, and rethrows the very error', async () => {
    const thrown = new TypeError('bad arguments')
    let caught: unknown
    const s = await session('throws', { save: false }, (s) => {
      try {
        start(s).send(() => {
          throw thrown
        })
      } catch (error) {
        caught = error
      }
    })
    expect(caught).toBe(thrown)
    expect(calls(s)[0]).toMatchObject({ response_text: null, model: 'asked-model', error: { name: 'TypeError', message: 'bad arguments' } })
  })

  it('hands back what send made, untouched', async () => {
    const made = { lazy: true }
    await session('send', { save: false }, (s) => expect(start(s).send(() => made)).toBe(made))
  })

  it('records the results of tools the provider ran inside the response, and keeps one whose call is unknown as unmatched', async () => {
    const s = await session('provider-tools', { save: false }, (s) =>
      start(s).receive({
        ...answer('Found it.'),
        toolCalls: [{ name: 'web_search', arguments: { q: 'x' }, callId: 'p1' }],
        providerToolResults: [
          { callId: 'p1', name: 'web_search', outcome: () => ({ result: ['hit'] }) },
          { callId: 'p9', name: 'web_fetch', outcome: () => ({ error: 'quota exceeded' }) },
        ],
      }),
    )
    expect(s.trace.turns[0]!.tool_results).toEqual([
      { call_id: 'p1', result: ['hit'], error: null, duration_ms: 0 },
      { call_id: 'p9', result: null, error: 'quota exceeded', duration_ms: 0 },
    ])
    expect(s.trace.turns[0]!.unmatched_results).toEqual([{ call_id: 'p9', name: 'web_fetch' }])
  })

  it('runs afterRecord once the call is in the trace', async () => {
    const seen: number[] = []
    await session('after-record', { save: false }, (s) => {
      const call = start(s, { afterRecord: (recordedIn) => void seen.push(recordedIn.trace.turns.length) })
      call.receive(answer('a'))
      call.receive(answer('b'))
    })
    expect(seen).toEqual([1])
  })

  it('never lets a translation that throws reach the caller: it warns once, naming the call', async () => {
    resetAdapterWarnings()
    const warnings = captureWarnings()
    const s = await session('broken-translation', { save: false }, (s) => {
      start(s, {
        response: () => {
          throw new Error('unexpected shape')
        },
      }).receive(answer('x'))
      return 'went on'
    })
    expect(s.output).toBe('went on')
    expect(s.trace.turns).toEqual([])
    expect((await warnings.seen()).filter((w) => w.code === 'REAGENT_ADAPTER').map((w) => w.message)).toEqual([
      'reagent-flow: test-adapter: could not record a test call (unexpected shape). ' +
        'The call itself went on; further recording failures of this adapter are not reported. Please report this with the SDK version.',
    ])
  })

  it('goes on unrecorded when the request cannot be read, and warns once', async () => {
    resetAdapterWarnings()
    const warnings = captureWarnings()
    const unreadable = api({
      request: () => {
        throw new Error('no body')
      },
    })
    const s = await session('unreadable-request', { save: false }, (s) => startModelCall(s, unreadable, REQUEST) === undefined)
    expect(s.output).toBe(true)
    expect(s.trace.turns).toEqual([])
    expect((await warnings.seen()).filter((w) => w.code === 'REAGENT_ADAPTER').map((w) => w.message)).toEqual([
      'reagent-flow: test-adapter: could not record a request (no body). ' +
        'The call itself went on; further recording failures of this adapter are not reported. Please report this with the SDK version.',
    ])
  })
})

describe('ModelCall: a streamed response', () => {
  async function streamed(events: string[], end: Parameters<ReturnType<ReturnType<typeof start>['stream']>['onEnd']>[0], canTell = true): Promise<LlmCall> {
    const s = await session('stream', { save: false }, (s) => {
      const watch = start(s, { stream: () => new TextFold(canTell) }).stream()
      for (const event of events) watch.onEvent(event)
      watch.onEnd(end)
    })
    expect(s.trace.turns).toHaveLength(1)
    return calls(s)[0]!
  }

  it('records a stream at its last event, before the stream ends; what comes after is ignored', async () => {
    let turnsAtLastEvent = -1
    const s = await session('last-event', { save: false }, (s) => {
      const watch = start(s).stream()
      watch.onEvent('Hel')
      watch.onEvent('lo.')
      watch.onEvent('end')
      turnsAtLastEvent = s.trace.turns.length
      watch.onEvent('late')
      watch.onEnd({ how: 'return' })
    })
    expect(turnsAtLastEvent).toBe(1)
    expect(calls(s)[0]).toMatchObject({ response_text: 'Hello.', provider: 'test-provider' })
    expect(calls(s)[0]).not.toHaveProperty('error')
  })

  it('says why a stream that ended before its last event is incomplete, for every way reading ends', async () => {
    expect((await streamed(['Hel'], { how: 'return' })).error).toEqual({
      name: 'Error',
      message: 'the stream was closed by its reader before end: the response is incomplete',
    })
    expect((await streamed(['Hel'], { how: 'abort' })).error).toEqual({
      name: 'Error',
      message: 'the stream ended before end: the response is incomplete (was the request aborted?)',
    })
    expect((await streamed(['Hel'], { how: 'done' })).error).toEqual({
      name: 'Error',
      message: 'the stream ended before end: the response is incomplete (was the request aborted?)',
    })
    expect((await streamed(['Hel'], { how: 'error', error: new Error('connection reset') })).error).toMatchObject({
      name: 'Error',
      message: 'connection reset',
    })
  })

  it('takes a stream whose last event is not handed out as whole when read to its end, and as incomplete when left or aborted', async () => {
    const whole = await streamed(['Hel', 'lo.'], { how: 'done' }, false)
    expect(whole.response_text).toBe('Hello.')
    expect(whole).not.toHaveProperty('error')
    expect((await streamed(['Hel'], { how: 'return' }, false)).error!.message).toBe(
      'the stream was closed by its reader before end: the response is incomplete',
    )
    expect((await streamed(['Hel'], { how: 'abort' }, false)).error!.message).toBe(
      'the stream ended before end: the response is incomplete (was the request aborted?)',
    )
  })

  it("keeps the response's own error over the incompleteness, and the reader's error over both", async () => {
    const failing = (): StreamFold<string> => {
      const fold = new TextFold(true)
      return {
        lastEvent: fold.lastEvent,
        isComplete: false,
        add: (event) => fold.add(event),
        result: () => ({ ...fold.result(), error: 'error event from the API' }),
      }
    }
    const run = (end: Parameters<ReturnType<ReturnType<typeof start>['stream']>['onEnd']>[0]) =>
      session('own-error', { save: false }, (s) => {
        const watch = start(s, { stream: failing }).stream()
        watch.onEvent('Hal')
        watch.onEnd(end)
      })
    expect(calls(await run({ how: 'done' }))[0]!.error).toEqual({ name: 'Error', message: 'error event from the API' })
    expect(calls(await run({ how: 'error', error: new RangeError('socket hang up') }))[0]!.error).toMatchObject({
      name: 'RangeError',
      message: 'socket hang up',
    })
  })

  it('warns once about a fold that throws, stops feeding it, and still records what it folded', async () => {
    resetAdapterWarnings()
    const warnings = captureWarnings()
    const call = await streamed(['Hel', 'explode', 'lo.'], { how: 'done' }, false)
    expect(call.response_text).toBe('Hel')
    expect((await warnings.seen()).filter((w) => w.code === 'REAGENT_ADAPTER').map((w) => w.message)).toEqual([
      'reagent-flow: test-adapter: could not record a streamed event (fold broken). ' +
        'The call itself went on; further recording failures of this adapter are not reported. Please report this with the SDK version.',
    ])
  })
})

describe('ModelCall: a call its session outlives', () => {
  it('is cut short when the session closes, with what its stream had brought', async () => {
    const s = await session('outlived', { save: false }, (s) => {
      start(s).stream().onEvent('Half an ans')
      start(s)
    })
    expect(calls(s).map((call) => [call.response_text, call.error?.message])).toEqual([
      ['Half an ans', SESSION_CLOSED],
      [null, SESSION_CLOSED],
    ])
  })

  it("waits for the API's settle work first, which may still end the call", async () => {
    let finishLater: () => void = () => undefined
    const s = await session('settled', { save: false }, (s) => {
      const call = start(s, {
        settle: () => {
          finishLater()
          return new Promise((resolve) => setTimeout(resolve, 5))
        },
      })
      finishLater = () => setTimeout(() => call.receive(answer('Just in time.')), 1)
      start(s, { settle: () => Promise.resolve() })
    })
    expect(calls(s).map((call) => [call.response_text, call.error?.message])).toEqual([
      ['Just in time.', undefined],
      [null, SESSION_CLOSED],
    ])
  })
})
