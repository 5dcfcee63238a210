import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { loadChain, session } from 'reagent-flow'
import { instrumentTools, reagentMiddleware } from 'reagent-flow/ai-sdk'
import { tempDir } from '../helpers/temp-dir.js'
import { answer, generatingModel, text, toolCall } from '../adapters/ai-sdk/scripted.js'

describe('reagent-flow/ai-sdk, imported by its public name (built)', () => {
  it('records a tool loop into a session of the built package, and writes a trace loadChain reads', async () => {
    const traceDir = tempDir()
    const model = wrapLanguageModel({
      model: generatingModel([answer([toolCall('c1', 'add', { a: 2, b: 3 })]), answer([text('5')])]),
      middleware: reagentMiddleware(),
    })
    const tools = instrumentTools({ add: tool({ inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => a + b }) })
    const s = await session('calculator', { traceDir }, async () => (await generateText({ model, tools, prompt: '2+3?', stopWhen: stepCountIs(3) })).text)

    expect(s.output).toBe('5')
    expect(
      loadChain('calculator', { traceDir }).trace.turns.map((turn) => [turn.llm_call.tool_calls.map((c) => c.name), turn.tool_results.map((r) => r.result)]),
    ).toEqual([
      [['add'], [5]],
      [[], []],
    ])
  })
})
