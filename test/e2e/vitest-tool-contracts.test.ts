/**
 * Tool contracts in a vitest project as a user has one: the contract is
 * written on the first run, drift of each class fails under CI with its
 * classified diff, `allow` lets a class pass, `vitest -u` rewrites it, CI
 * never writes a missing one, and the reporter sums them up (written,
 * updated, failed, missing, obsolete, removed). The tools offered are built
 * by hand from the project's tools.json, as an adapter records them. Each
 * step needs the previous one, so they run in order on one project.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ToolDefinition } from '../../src/entries/index.js'
import { scratchProject, writeFiles } from '../helpers/doc-examples.js'
import { runVitest } from '../helpers/vitest-project.js'

const CONTRACT = '.reagent/contracts/test/refund.test.ts/refunds_order_42.tools.json'
const STALE = '.reagent/contracts/test/refund.test.ts/an_old_test.tools.json'

const LOOKUP: ToolDefinition = {
  name: 'lookup_order',
  kind: 'function',
  description: 'Look up an order by its id.',
  parameters: { properties: { order_id: { type: 'string' } }, required: ['order_id'], type: 'object' },
}

const FILES = new Map([
  [
    'vitest.config.ts',
    "import { defineConfig } from 'vitest/config'\n" +
      "export default defineConfig({ test: { setupFiles: ['reagent-flow/vitest'], reporters: ['default', 'reagent-flow/vitest/reporter'] } })\n",
  ],
  [
    'test/refund.test.ts',
    `import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import { test } from 'reagent-flow/vitest'

const read = (file) => JSON.parse(readFileSync(new URL('../' + file, import.meta.url), 'utf8'))

test('refunds order 42', async ({ agentSession }) => {
  const s = await agentSession((s) => void s.logLlmCall({ responseText: 'Refunded.', model: 'gpt-4o' }))
  // The tools offered, as an adapter records them.
  s.trace.tool_sets = { ts_0123456789ab: read('tools.json') }
  s.trace.turns[0].llm_call.tool_set = 'ts_0123456789ab'
  expect(s).toMatchToolContract(read('options.json'))
})
`,
  ],
  ['tools.json', JSON.stringify([LOOKUP])],
  ['options.json', '{}'],
])

describe('tool contracts in a vitest project', () => {
  let dir: string
  const offer = (tools: ToolDefinition[], options: object = {}): void => {
    writeFileSync(join(dir, 'tools.json'), JSON.stringify(tools))
    writeFileSync(join(dir, 'options.json'), JSON.stringify(options))
  }
  const contract = (): string => readFileSync(join(dir, CONTRACT), 'utf8')
  beforeAll(() => {
    dir = scratchProject('reagent-tool-contracts-')
    writeFiles(dir, FILES)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('writes the contract on the first run, listed by the reporter, then matches it under CI', async () => {
    const written = await runVitest(dir)
    expect(written.exitCode).toBe(0)
    expect(written.output).toContain(`\n   Contracts  1 written\n  written ${CONTRACT}\n  Review this tool contract and commit it.\n`)
    expect(JSON.parse(contract())).toEqual({ contract_version: 1, name: 'refunds order 42', tools: [LOOKUP] })
    const matched = await runVitest(dir, { env: { CI: 'true' } })
    expect([matched.exitCode, matched.output.includes('\n   Contracts  1 matched\n')]).toEqual([0, true])
  })

  it('fails under CI on a reworded description, with its word diff, and leaves the contract as it was', async () => {
    const before = contract()
    offer([{ ...LOOKUP, description: 'Look up an order by its number.' }])
    const run = await runVitest(dir, { env: { CI: 'true' } })
    expect(run.exitCode).toBe(1)
    expect(run.output).toContain(
      `The tools "refunds order 42" offers the model do not match its tool contract (${CONTRACT}): 1 wording.\n` +
        '  wording     tool "lookup_order": description\n' +
        '                Look up an order by its [-id-]{+number+}.\n',
    )
    expect(run.output).toContain('\n   Contracts  1 failed\n')
    expect(contract()).toBe(before)
  })

  it('fails on a compatible change by default, and passes it when allowed', async () => {
    const verbose = { ...LOOKUP, parameters: { ...LOOKUP.parameters, properties: { order_id: { type: 'string' }, verbose: { type: 'boolean' } } } }
    offer([verbose])
    const failed = await runVitest(dir, { env: { CI: 'true' } })
    expect(failed.exitCode).toBe(1)
    expect(failed.output).toContain('  compatible  tool "lookup_order": new optional parameter "verbose" (boolean)\n')
    offer([verbose], { allow: ['compatible'] })
    const allowed = await runVitest(dir, { env: { CI: 'true' } })
    expect([allowed.exitCode, allowed.output.includes('\n   Contracts  1 matched\n')]).toEqual([0, true])
  })

  it('fails on a breaking change even with compatible and wording allowed', async () => {
    offer([{ ...LOOKUP, parameters: { properties: { order_id: { type: 'integer' } }, required: ['order_id'], type: 'object' } }], {
      allow: ['compatible', 'wording'],
    })
    const run = await runVitest(dir, { env: { CI: 'true' } })
    expect(run.exitCode).toBe(1)
    expect(run.output).toContain('  breaking    tool "lookup_order": parameter "order_id" retyped from string to integer\n')
  })

  it('lists a contract no test asks for as obsolete, and vitest -u rewrites the contract and removes the obsolete one', async () => {
    writeFileSync(join(dir, STALE), contract())
    offer([LOOKUP])
    const listed = await runVitest(dir, { env: { CI: 'true' } })
    expect(listed.exitCode).toBe(0)
    expect(listed.output).toContain(
      `\n   Contracts  1 matched | 1 obsolete\n\nObsolete tool contracts (no test asks for them; run vitest -u to remove them):\n  ${STALE}\n`,
    )
    const renamed = { ...LOOKUP, name: 'find_order' }
    offer([renamed])
    const updated = await runVitest(dir, { args: ['-u'] })
    expect(updated.exitCode).toBe(0)
    expect(updated.output).toContain(`\n   Contracts  1 updated | 1 removed\n  updated ${CONTRACT}\n  Review this tool contract and commit it.\n`)
    expect(updated.output).toContain(`  removed obsolete tool contract ${STALE}\n`)
    expect(existsSync(join(dir, STALE))).toBe(false)
    expect(JSON.parse(contract()).tools).toEqual([renamed])
  })

  it('never writes a missing contract under CI: the test fails, naming the file and how to write it', async () => {
    rmSync(join(dir, CONTRACT))
    const run = await runVitest(dir, { env: { CI: 'true' } })
    expect(run.exitCode).toBe(1)
    expect(run.output).toContain(
      `No tool contract for "refunds order 42" at ${CONTRACT}, and contracts are not written when the update mode is "none" (the default when CI is set). ` +
        `Record it locally (run the tests without CI, or with REAGENT_UPDATE=new) and commit ${CONTRACT}.`,
    )
    expect(run.output).toContain('\n   Contracts  1 missing\n')
    expect(existsSync(join(dir, CONTRACT))).toBe(false)
  })
})
