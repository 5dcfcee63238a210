import { describe, expect, it } from 'vitest'
import { session, traceTool } from '../src/entries/index.js'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('traceTool()', () => {
  it('passes calls through untouched outside a session', async () => {
    const add = traceTool('add', (a: number, b: number) => a + b)
    expect(add(2, 3)).toBe(5)
    const fail = traceTool('fail', async () => {
      throw new Error('nope')
    })
    await expect(fail()).rejects.toThrowError('nope')
  })

  it('records a sync result as the result of the pending call, with its duration', async () => {
    const lookup = traceTool('lookup', ({ id }: { id: string }) => ({ id, found: true }))
    const s = await session('sync-tool', { save: false }, (s) => {
      const [callId] = s.logLlmCall({ toolCalls: [{ name: 'lookup', arguments: { id: '42' } }] })
      expect(lookup({ id: '42' })).toEqual({ id: '42', found: true })
      return callId
    })
    const [result] = s.trace.turns[0]!.tool_results
    expect(result).toMatchObject({ call_id: s.output, result: { id: '42', found: true }, error: null })
    expect(result!.duration_ms).toBeGreaterThanOrEqual(0)
  })

  it('awaits an async tool, measures its duration, and rethrows its error after recording it', async () => {
    const slow = traceTool('slow', async () => {
      await sleep(25)
      return 'done'
    })
    const broken = traceTool('broken', async () => {
      await sleep(5)
      throw new TypeError('bad input')
    })
    const s = await session('async-tool', { save: false }, async (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'slow' }, { name: 'broken' }] })
      expect(await slow()).toBe('done')
      await expect(broken()).rejects.toThrowError(new TypeError('bad input'))
    })
    const [slowResult, brokenResult] = s.trace.turns[0]!.tool_results
    expect(slowResult!.result).toBe('done')
    expect(slowResult!.duration_ms).toBeGreaterThanOrEqual(20)
    expect(brokenResult).toMatchObject({ result: null, error: 'TypeError: bad input' })
  })

  it('uses the call id a framework passes in the tool context', async () => {
    const search = traceTool('search', async (input: { q: string }, _ctx: { toolCallId: string }) => `results for ${input.q}`)
    const s = await session('ctx-tool', { save: false }, async (s) => {
      s.logLlmCall({
        toolCalls: [
          { name: 'search', arguments: { q: 'a' }, callId: 'c1' },
          { name: 'search', arguments: { q: 'b' }, callId: 'c2' },
        ],
      })
      await search({ q: 'b' }, { toolCallId: 'c2' })
    })
    expect(s.trace.turns[0]!.tool_results).toEqual([{ call_id: 'c2', result: 'results for b', error: null, duration_ms: expect.any(Number) }])
  })

  it('gives parallel executions of one tool different calls, matching their arguments', async () => {
    const weather = traceTool('weather', async ({ city }: { city: string }) => {
      await sleep(city === 'paris' ? 20 : 1)
      return `${city}: sunny`
    })
    const s = await session('parallel-tool', { save: false }, async (s) => {
      s.logLlmCall({
        toolCalls: [
          { name: 'weather', arguments: { city: 'paris' }, callId: 'p' },
          { name: 'weather', arguments: { city: 'rome' }, callId: 'r' },
        ],
      })
      await Promise.all([weather({ city: 'rome' }), weather({ city: 'paris' })])
    })
    const byCall = Object.fromEntries(s.trace.turns[0]!.tool_results.map((r) => [r.call_id, r.result]))
    expect(byCall).toEqual({ p: 'paris: sunny', r: 'rome: sunny' })
  })

  it('records a result once when the same call is reported again with skipIfRecorded', async () => {
    const tool = traceTool('t', () => 'exact')
    const s = await session('dedupe', { save: false }, (s) => {
      const [id] = s.logLlmCall({ toolCalls: [{ name: 't' }] })
      tool()
      s.logToolResult('t', { callId: id!, result: 'from the next request', skipIfRecorded: true })
    })
    expect(s.trace.turns[0]!.tool_results.map((r) => r.result)).toEqual(['exact'])
  })

  it('keeps this, the function name and a custom call id reader', async () => {
    const target = {
      prefix: 'id:',
      run: traceTool(
        'named',
        function (this: { prefix: string }, x: string, meta: { id: string }) {
          return this.prefix + x + meta.id
        },
        { callId: (_x, meta) => meta.id },
      ),
    }
    expect(target.run.name).toBe('named')
    const s = await session('this-tool', { save: false }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'named', callId: 'k' }] })
      return target.run('x', { id: 'k' })
    })
    expect(s.output).toBe('id:xk')
    expect(s.trace.turns[0]!.tool_results[0]!.call_id).toBe('k')
  })
})
