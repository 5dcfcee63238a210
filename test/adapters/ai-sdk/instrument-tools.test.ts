import { dynamicTool, tool } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentTools } from '../../../src/entries/ai-sdk.js'
import { session } from '../../../src/entries/index.js'

const marker = Symbol('marker')

function catalog() {
  const lookup = tool({
    description: 'Find an order',
    inputSchema: z.object({ id: z.string() }),
    execute: async ({ id }) => ({ id }),
    toModelOutput: ({ output }) => ({ type: 'json', value: output }),
  })
  Object.assign(lookup, { [marker]: 'kept' })
  const clientSide = tool({ description: 'Ask the user', inputSchema: z.object({ question: z.string() }), outputSchema: z.string() })
  return { lookup, clientSide }
}

describe('instrumentTools()', () => {
  it('wraps execute only, keeping every other property, and leaves tools without execute as they are', () => {
    const tools = catalog()
    const instrumented = instrumentTools(tools)

    expect(instrumented.clientSide).toBe(tools.clientSide)
    expect(instrumented.lookup).not.toBe(tools.lookup)
    expect(instrumented.lookup.execute).not.toBe(tools.lookup.execute)
    const { execute: _wrapped, ...rest } = instrumented.lookup
    const { execute: _original, ...original } = tools.lookup
    expect(rest).toEqual(original)
    expect(instrumented.lookup.inputSchema).toBe(tools.lookup.inputSchema)
    expect((instrumented.lookup as unknown as Record<symbol, unknown>)[marker]).toBe('kept')
    expect(Object.keys(instrumented)).toEqual(['lookup', 'clientSide'])
  })

  it('does not modify the given tools, and does not wrap twice', async () => {
    const tools = catalog()
    const originalExecute = tools.lookup.execute
    const once = instrumentTools(tools)
    const twice = instrumentTools(once)

    expect(tools.lookup.execute).toBe(originalExecute)
    expect(twice.lookup).toBe(once.lookup)
    const s = await session('instrument-twice', { save: false }, async (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'lookup', arguments: { id: '7' }, callId: 'c7' }] })
      await twice.lookup.execute!({ id: '7' }, { toolCallId: 'c7', messages: [] })
    })
    expect(s.trace.turns[0]!.tool_results).toEqual([{ call_id: 'c7', result: { id: '7' }, error: null, duration_ms: expect.any(Number) }])
  })

  it('passes this, the input and the options through, inside and outside a session', async () => {
    const seen: unknown[] = []
    const tools = instrumentTools({
      echo: dynamicTool({
        inputSchema: z.object({ x: z.number() }),
        execute: async function (this: unknown, input, options) {
          seen.push([this === tools.echo, input, options.toolCallId])
          return input
        },
      }),
    })
    // Called as the SDK calls it: bound to the tool.
    const execute = tools.echo.execute!.bind(tools.echo)
    await execute({ x: 1 }, { toolCallId: 'outside', messages: [] })
    await session('instrument-this', { save: false }, async (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'echo', arguments: { x: 2 }, callId: 'inside' }] })
      await execute({ x: 2 }, { toolCallId: 'inside', messages: [] })
    })
    expect(seen).toEqual([
      [true, { x: 1 }, 'outside'],
      [true, { x: 2 }, 'inside'],
    ])
  })

  it('rethrows a sync error from execute unchanged after recording it', async () => {
    const failure = new SyntaxError('bad query')
    const tools = instrumentTools({
      parse: tool({
        inputSchema: z.object({ q: z.string() }),
        execute: (): string => {
          throw failure
        },
      }),
    })
    let caught: unknown
    const s = await session('instrument-sync-throw', { save: false }, (s) => {
      s.logLlmCall({ toolCalls: [{ name: 'parse', arguments: { q: '(' }, callId: 'p1' }] })
      try {
        void tools.parse.execute!({ q: '(' }, { toolCallId: 'p1', messages: [] })
      } catch (error) {
        caught = error
      }
    })
    expect(caught).toBe(failure)
    expect(s.trace.turns[0]!.tool_results).toEqual([{ call_id: 'p1', result: null, error: 'SyntaxError: bad query', duration_ms: expect.any(Number) }])
  })

  it('refuses what is not a tools object, saying what it needs', () => {
    expect(() => instrumentTools(null as never)).toThrowError(
      new TypeError('instrumentTools(tools) needs the tools object you pass to generateText or streamText ({ name: tool(...) }), got null.'),
    )
    expect(() => instrumentTools([] as never)).toThrowError(
      new TypeError('instrumentTools(tools) needs the tools object you pass to generateText or streamText ({ name: tool(...) }), got an array.'),
    )
  })
})
