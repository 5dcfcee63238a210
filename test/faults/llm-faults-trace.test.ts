import { readFileSync } from 'node:fs'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { session } from '../../src/entries/index.js'
import { validateTrace } from '../../src/entries/files.js'
import { normalizeTrace } from '../../src/entries/golden.js'
import { loadPriceTable } from '../../src/storage/price-file.js'
import { summarizeTrace } from '../../src/viewer/summarize.js'
import { runCli } from '../cli/run-cli.js'
import { inOrder, startCannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { json } from '../adapters/openai/helpers.js'

const MESSAGE = "429 Rate limit reached for gpt-4o: an injected fault (the session's faults option)."

async function rateLimitedRun(dir: string) {
  const server = await startCannedServer(inOrder(json('chat/final-answer.json')))
  const openai = instrumentOpenAI(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 1 }))
  return session('rate-limited', { traceDir: dir, faults: [{ llm: true, status: 429, times: 1 }] }, async () => {
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather in Paris?' }] })
    return completion.choices[0]!.message.content
  })
}

describe('an injected LLM failure in the trace', () => {
  it('is written as injected: true on the llm_call (after error), valid against the schema, and left out of golden normal form', async () => {
    const dir = tempDir()
    const s = await rateLimitedRun(dir)

    const written = JSON.parse(readFileSync(s.path!, 'utf8')) as { turns: Array<{ llm_call: Record<string, unknown> } & Record<string, unknown>> }
    const attempt = written.turns[0]!
    expect(Object.keys(attempt.llm_call).slice(-2)).toEqual(['error', 'injected'])
    expect([attempt.llm_call['injected'], 'injected' in attempt, 'injected' in written.turns[1]!.llm_call]).toEqual([true, false, false])
    expect(() => validateTrace(written)).not.toThrow()
    const normal = normalizeTrace(s.trace)
    expect(normal.turns.map((turn) => 'injected' in turn.llm_call)).toEqual([false, false])
    expect(normal.turns[0]!.llm_call.error).toMatchObject({ name: 'RateLimitError', message: MESSAGE })
  })

  it('is counted by the viewer as an injected fault, and shown by `show` with its mark', async () => {
    const dir = tempDir()
    const s = await rateLimitedRun(dir)

    expect(summarizeTrace(s.trace, 'rate-limited', 'run', loadPriceTable()).injected_faults).toBe(1)
    const { code, stdout } = runCli(['show', 'rate-limited', '--dir', dir], dir)
    expect(code).toBe(0)
    const lines = stdout.split('\n')
    expect(lines[0]).toMatch(/^rate-limited {2}completed · 2 turns · /)
    expect(lines[1]).toMatch(/^ {2}✗ Turn 0 {2}\S+ {2}gpt-4o {2}injected fault$/)
    expect(lines[2]).toBe(`      LLM error: RateLimitError: ${MESSAGE} (injected)`)
    expect(lines[3]).toMatch(/^ {2}✓ Turn 1 {2}\S+ {2}gpt-4o-2024-08-06$/)
  })
})
