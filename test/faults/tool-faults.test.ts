import { readFileSync } from 'node:fs'
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { instrumentTools, reagentMiddleware } from '../../src/entries/ai-sdk.js'
import { ToolFaultError } from '../../src/errors/index.js'
import { scriptedLanguageModel } from '../../src/entries/fake.js'
import { formatStackTrace, session, traceTool, type Session } from '../../src/entries/index.js'
import { normalizeTrace } from '../../src/entries/golden.js'
import { renderTrace } from '../../src/golden/trace-file.js'
import { tempDir } from '../helpers/temp-dir.js'

/** A payment agent that logs its model calls by hand and runs its tools through traceTool. */
function paymentKit(): {
  charged: string[]
  chargeCard: (args: { order: string }) => Promise<string>
  agent: (s: Session, orders: string[]) => Promise<string[]>
} {
  const charged: string[] = []
  const chargeCard = traceTool('charge_card', async ({ order }: { order: string }) => {
    charged.push(order)
    return `charged ${order}`
  })
  const agent = async (s: Session, orders: string[]): Promise<string[]> => {
    const outcomes: string[] = []
    for (const order of orders) {
      s.logLlmCall({ toolCalls: [{ name: 'charge_card', arguments: { order } }], model: 'gpt-4o' })
      outcomes.push(await chargeCard({ order }).catch((error: Error) => `${error.name}: ${error.message}`))
    }
    s.logLlmCall({ responseText: outcomes.join('; '), model: 'gpt-4o' })
    return outcomes
  }
  return { charged, chargeCard, agent }
}

describe('the faults option: a traceTool tool fails instead of running', () => {
  it('throws the fault in place of every call, records it as the result, and marks the turn injected', async () => {
    const { charged, agent } = paymentKit()
    const s = await session('declined', { save: false, faults: [{ tool: 'charge_card', error: 'card declined' }] }, (s) => agent(s, ['a', 'b']))

    expect(s.output).toEqual(['ToolFaultError: card declined', 'ToolFaultError: card declined'])
    expect(charged).toEqual([])
    expect(s.status).toBe('completed')
    const [first, second] = s.trace.turns
    expect(first!.tool_results).toEqual([
      { call_id: first!.llm_call.tool_calls[0]!.call_id, result: null, error: 'ToolFaultError: card declined', duration_ms: expect.any(Number) },
    ])
    expect(Object.keys(first!.tool_results[0]!)).toEqual(['call_id', 'result', 'error', 'duration_ms'])
    expect(Object.keys(first!.llm_call.tool_calls[0]!)).toEqual(['name', 'arguments', 'call_id', 'timestamp'])
    expect([first!.injected, first!.injected_results]).toEqual([true, [first!.llm_call.tool_calls[0]!.call_id]])
    expect([second!.injected, s.trace.turns[2]!.injected]).toEqual([true, undefined])
  })

  it('fails only the calls `after` and `times` name, each fault counting every call of its tool', async () => {
    const { charged, agent } = paymentKit()
    const faults = [
      { tool: 'charge_card', error: 'timed out', times: 1 },
      { tool: 'charge_card', error: 'card declined', after: 3, times: 1 },
    ]
    const s = await session('transient', { save: false, faults }, (s) => agent(s, ['a', 'b', 'c', 'd', 'e']))

    expect(s.output).toEqual(['ToolFaultError: timed out', 'charged b', 'charged c', 'ToolFaultError: card declined', 'charged e'])
    expect(charged).toEqual(['b', 'c', 'e'])
    expect(s.trace.turns.map((turn) => turn.injected === true)).toEqual([true, false, false, true, false, false])
  })

  it('throws an Error of your own as it is, and a fault of an async tool as a rejected promise', async () => {
    class CardError extends Error {
      override name = 'CardError'
    }
    const declined = new CardError('insufficient funds')
    const chargeCard = traceTool('charge_card', async () => 'charged')
    const lookup = traceTool('lookup', () => 'found')
    const s = await session(
      'own-error',
      {
        save: false,
        faults: [
          { tool: 'charge_card', error: declined },
          { tool: 'lookup', error: 'no such order' },
        ],
      },
      (s) => {
        s.logLlmCall({ toolCalls: [{ name: 'charge_card' }, { name: 'lookup' }] })
        const pending = chargeCard()
        expect(pending).toBeInstanceOf(Promise)
        expect(() => lookup()).toThrow(new ToolFaultError('lookup', 'no such order'))
        return pending.catch((error: unknown) => error)
      },
    )

    expect(s.output).toBe(declined)
    // The sync tool's failure is recorded at once, the async one's when its promise settles.
    expect(s.trace.turns[0]!.tool_results.map((r) => r.error)).toEqual(['ToolFaultError: no such order', 'CardError: insufficient funds'])
    expect(s.trace.turns[0]!.injected_results).toHaveLength(2)
  })

  it('gives the ToolFaultError the tool it stands for and says it was injected', () => {
    const error = new ToolFaultError('charge_card', 'card declined')
    expect([error.name, error.message, error.tool, error.injected]).toEqual(['ToolFaultError', 'card declined', 'charge_card', true])
  })

  it('is shared with the sessions opened inside, which count toward the same faults', async () => {
    const { agent } = paymentKit()
    const s = await session('parent', { save: false, faults: [{ tool: 'charge_card', error: 'card declined', after: 1 }] }, async (s) => {
      const first = await agent(s, ['a'])
      const child = await session<string[]>('child', { save: false }, (child) => agent(child, ['b']))
      return [...first, ...(child.output ?? [])]
    })
    expect(s.output).toEqual(['charged a', 'ToolFaultError: card declined'])
  })

  it('fails tools the AI SDK runs (instrumentTools), and the model sees the tool error', async () => {
    let runs = 0
    const tools = instrumentTools({
      charge_card: tool({ inputSchema: z.object({ order: z.string() }), execute: async ({ order }) => `charged ${order} (${++runs})` }),
    })
    const model = scriptedLanguageModel([{ toolCalls: [{ name: 'charge_card', arguments: { order: '42' } }] }, { text: 'The card was declined.' }])
    const s = await session('ai-sdk-fault', { save: false, faults: [{ tool: 'charge_card', error: 'card declined' }] }, async () => {
      const result = await generateText({
        model: wrapLanguageModel({ model, middleware: reagentMiddleware() }),
        tools,
        prompt: 'Charge order 42.',
        stopWhen: stepCountIs(3),
      })
      return result.text
    })

    expect(runs).toBe(0)
    expect(s.output).toBe('The card was declined.')
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', name: 'charge_card', content: expect.stringContaining('card declined') })
    expect(s.trace.turns[0]!.tool_results[0]!.error).toBe('ToolFaultError: card declined')
    expect(s.trace.turns[0]!.injected).toBe(true)
  })
})

describe('injected faults in the files and reports', () => {
  async function faultedRun(traceDir: string, golden: boolean): Promise<Session> {
    const { agent } = paymentKit()
    return session('declined', { traceDir, golden, faults: [{ tool: 'charge_card', error: 'card declined', times: 1 }] }, (s) => agent(s, ['a', 'b']))
  }

  it('keeps the marks in the trace file and out of the golden normal form', async () => {
    const traceDir = tempDir()
    const s = await faultedRun(traceDir, true)
    const file = JSON.parse(readFileSync(s.path!, 'utf8')) as { turns: Array<Record<string, unknown>> }
    expect(file.turns[0]!['injected']).toBe(true)
    const golden = readFileSync(`${traceDir}/golden/declined.trace.json`, 'utf8')
    expect(golden).not.toContain('injected')
    expect(golden).toContain('"error": "ToolFaultError: card declined"')
    expect(renderTrace(s.trace, { golden: true, redact: false })).toBe(golden)
    expect(normalizeTrace(s.trace).turns[0]).not.toHaveProperty('injected')
  })

  it('marks the injected result and its turn in the agent stack trace that show prints', async () => {
    const s = await faultedRun(tempDir(), false)
    const lines = formatStackTrace(s.trace, { color: false }).split('\n')
    expect(lines[1]).toMatch(/^ {2}✗ Turn 0 {2}.*gpt-4o {2}injected fault$/)
    expect(lines[3]).toMatch(/^ {8}✗ ToolFaultError: card declined \(injected\)/)
    expect(lines[4]).toMatch(/^ {2}✓ Turn 1 {2}[^i]*gpt-4o$/)
  })
})

describe('the faults option is checked', () => {
  const open = (faults: unknown): Promise<unknown> => session('checked', { save: false, faults } as never, () => undefined)

  it.each([
    [
      { tool: 'x', error: 'e' },
      TypeError,
      `session() option "faults" must be an array of faults, each { tool, error, times?, after? } (a tool fails) or { llm: true, status, times?, after?, model? } (model calls fail), e.g. { tool: 'charge_card', error: 'card declined', times: 1 } or { llm: true, status: 429, times: 1 }; got an object with keys tool, error.`,
    ],
    [
      ['charge_card'],
      TypeError,
      `session() option "faults[0]" must be a fault, { tool, error, times?, after? } (a tool fails) or { llm: true, status, times?, after?, model? } (model calls fail), e.g. { tool: 'charge_card', error: 'card declined', times: 1 } or { llm: true, status: 429, times: 1 }; got the string "charge_card".`,
    ],
    [
      [{ tool: 'x', error: 'e', model: 'gpt-4o' }],
      TypeError,
      `session() option "faults[0]" has an unknown key "model". A tool fault is { tool, error, times?, after? }, e.g. { tool: 'charge_card', error: 'card declined', times: 1 }.`,
    ],
    [[{ tool: '', error: 'e' }], TypeError, 'session() option "faults[0].tool" must be the name of the tool to fail (a non-empty string), got the string "".'],
    [
      [{ tool: 'a', error: 'e' }, { tool: 'b' }],
      TypeError,
      'session() option "faults[1].error" must be what the tool fails with: a message (a non-empty string) or an Error, got undefined.',
    ],
    [
      [{ tool: 'a', error: 'e', times: 0 }],
      RangeError,
      'session() option "faults[0].times" must be a whole number of at least 1 (how many calls fail), got 0.',
    ],
    [
      [{ tool: 'a', error: 'e', after: 1.5 }],
      RangeError,
      'session() option "faults[0].after" must be a whole number of at least 0 (how many calls run before the first failure), got 1.5.',
    ],
    [
      [{ tool: 'a', error: 'e', times: '2' }],
      TypeError,
      'session() option "faults[0].times" must be a whole number (how many calls fail), got the string "2".',
    ],
  ])('rejects %j with a message naming the fault and the valid form', async (faults, kind, message) => {
    await expect(open(faults)).rejects.toThrow(new kind(message))
  })
})
