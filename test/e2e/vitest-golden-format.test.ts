/**
 * A golden written in an older form (each call's messages as the new ones and
 * `messages_base`, decision note 049), met by a vitest project as a user has
 * it: the run matches it and leaves it alone, and `vitest -u` rewrites it in
 * the current form, said as a format change. Each step needs the previous
 * one, so they run in order on one project.
 */
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { normalizeTrace } from '../../src/golden/normal-form.js'
import { renderGolden } from '../../src/golden/render.js'
import type { Trace } from '../../src/entries/index.js'
import { encodeMessages } from '../../src/trace/messages.js'
import { goldenFileChunks, joinChunks } from '../../src/trace/trace-text.js'
import { scratchProject, writeFiles } from '../helpers/doc-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

const GOLDEN = '.reagent/golden/test/refund.test.ts/refunds_order_42.trace.json'

const FILES = new Map([
  [
    'vitest.config.ts',
    "import { defineConfig } from 'vitest/config'\n" +
      "export default defineConfig({ test: { setupFiles: ['reagent-flow/vitest'], reporters: ['default', 'reagent-flow/vitest/reporter'] } })\n",
  ],
  [
    'test/refund.test.ts',
    `import { expect } from 'vitest'
import { test } from 'reagent-flow/vitest'

test('refunds order 42', async ({ agentSession }) => {
  const s = await agentSession((s) => {
    const messages = [{ role: 'user', content: 'Refund order 42' }]
    const [lookup] = s.logLlmCall({ messages: [...messages], toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }], model: 'gpt-4o' })
    s.logToolResult('lookup_order', { callId: lookup, result: { amount: 19.99 } })
    messages.push({ role: 'tool', content: '{"amount":19.99}' })
    s.logLlmCall({ messages: [...messages], responseText: 'Refunded $19.99.', model: 'gpt-4o' })
  })
  expect(s).toMatchGolden()
})
`,
  ],
])

/** A golden as versions before decision note 049 wrote it: a call repeating an earlier call's messages holds only its new ones and messages_base. */
function inOlderForm(text: string): string {
  const normal = normalizeTrace(JSON.parse(text) as Trace)
  const turns = normal.turns.map((turn, at) => ({ ...turn, llm_call: encodeMessages(normal.turns, at) }))
  return joinChunks(goldenFileChunks({ ...normal, turns }))
}

describe('a golden in the older form, in a vitest project', () => {
  let dir: string
  beforeAll(() => {
    dir = scratchProject('reagent-golden-format-')
    writeFiles(dir, FILES)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('is matched and left as it is by a run, then rewritten in the current form by vitest -u, said as a format change', async () => {
    const written = await runVitest(dir)
    expect(written.output).toContain('\n     Goldens  1 written\n')
    const path = join(dir, GOLDEN)
    const current = readFileSync(path, 'utf8')
    expect(current).not.toContain('messages_base')
    const older = inOlderForm(current)
    expect(older).toContain('"messages_base": {')
    writeFileSync(path, older)
    utimesSync(path, new Date(1_000_000), new Date(1_000_000))

    const matched = await runVitest(dir, { env: { CI: 'true' } })
    expect([matched.exitCode, matched.output.includes('\n     Goldens  1 matched\n')]).toEqual([0, true])
    expect(readFileSync(path, 'utf8')).toBe(older)
    expect(statSync(path).mtimeMs).toBe(1_000_000)

    const updated = await runVitest(dir, { args: ['-u'] })
    expect(updated.exitCode).toBe(0)
    // With the reporter, the run's summary lists it (and the test says nothing of its own).
    expect(updated.output).toContain(`\n     Goldens  1 format updated\n  format updated ${GOLDEN}\n  Review this golden and commit it.\n`)
    expect(updated.output).not.toContain('Golden baseline for')
    expect(readFileSync(path, 'utf8')).toBe(current)
    expect(renderGolden(JSON.parse(current) as Trace).text).toBe(current)
  }, 120_000)
})
