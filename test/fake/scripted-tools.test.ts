import { describe, expect, it } from 'vitest'
import { scriptedTools, ToolScriptExhaustedError } from '../../src/entries/fake.js'

describe('scriptedTools', () => {
  it('answers each tool from its own answers, in order, whatever the arguments: a result, or an error it throws', async () => {
    const tools = scriptedTools({
      lookup_order: [{ result: { order_id: '42', amount: 19.99 } }],
      issue_refund: [{ error: 'refunds are closed on Sundays' }, { result: 'Refunded.' }],
    })

    expect(await tools.lookup_order!({ order_id: '7' })).toEqual({ order_id: '42', amount: 19.99 })
    await expect(tools.issue_refund!({ order_id: '42' })).rejects.toThrow(new Error('refunds are closed on Sundays'))
    expect(await tools.issue_refund!({ order_id: '42' })).toBe('Refunded.')
  })

  it('fails a call past the answers with ToolScriptExhaustedError, naming the tool and the call', async () => {
    const tools = scriptedTools({ lookup_order: [{ result: null }] })
    await tools.lookup_order!()

    const error = await tools.lookup_order!().catch((caught: unknown) => caught)

    expect(error).toBeInstanceOf(ToolScriptExhaustedError)
    expect((error as Error).message).toBe(
      'scriptedTools: tool "lookup_order" has no answer for call #2: its script has 1 answer. Add an answer for this call, or find out why the agent called the tool again.',
    )
  })

  it('refuses a script that is not one where it is written', () => {
    expect(() => scriptedTools({ lookup_order: [{ result: 1 }, { value: 2 }] } as never)).toThrow(
      new TypeError('scriptedTools: answer 2 of tool "lookup_order" is {"value":2}, not { result: <value> } or { error: \'<message>\' }.'),
    )
    expect(() => scriptedTools({ lookup_order: { result: 1 } } as never)).toThrow(
      new TypeError('scriptedTools: the answers of tool "lookup_order" must be an array, got {"result":1}.'),
    )
    expect(() => scriptedTools([] as never)).toThrow(new TypeError('scriptedTools: the script must be an object of tool names to their answers, got an array.'))
  })
})
