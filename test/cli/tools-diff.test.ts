import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ToolDefinition } from '../../src/entries/index.js'
import { saveTrace } from '../../src/entries/files.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'
import { runCli, runJson } from './run-cli.js'

const LOOKUP: ToolDefinition = {
  name: 'lookup_order',
  kind: 'function',
  description: 'Look up an order by its id.',
  parameters: { properties: { order_id: { type: 'string' } }, required: ['order_id'], type: 'object' },
}
const REFUND: ToolDefinition = {
  name: 'refund',
  kind: 'function',
  description: 'Refund an order.',
  parameters: { properties: { reason: { enum: ['damaged', 'late', 'other'] } }, type: 'object' },
}

const contractText = (tools: ToolDefinition[]): string => JSON.stringify({ contract_version: 1, name: 'refund-agent', tools }, null, 2)

/** A directory holding a.tools.json (LOOKUP, REFUND) and a run of refund-agent that offered `offered`. */
function project(offered: ToolDefinition[]): string {
  const cwd = tempDir()
  writeFileSync(join(cwd, 'a.tools.json'), contractText([LOOKUP, REFUND]))
  const run = buildTrace('refund-agent', [{ text: 'Refunded.' }])
  run.tool_sets = { ts_0123456789ab: offered }
  run.turns[0]!.llm_call.tool_set = 'ts_0123456789ab'
  saveTrace(run, { traceDir: join(cwd, '.reagent') })
  return cwd
}

const RUN = join('.reagent', 'refund-agent.trace.json')
const DRIFTED = [
  { ...LOOKUP, description: 'Look up an order by its number.' },
  { ...REFUND, parameters: { properties: { reason: { enum: ['damaged', 'late'] } }, type: 'object' } },
  { name: 'notify', kind: 'function', description: null, parameters: null } as ToolDefinition,
]

describe('reagent-flow tools diff', () => {
  it('prints each change of a contract and a run, classified, and exits 1 when one breaks', () => {
    expect(runCli(['tools', 'diff', 'a.tools.json', 'refund-agent'], project(DRIFTED))).toEqual({
      code: 1,
      stdout: [
        '- expected  a.tools.json',
        `+ actual    ${RUN}`,
        '',
        '3 changes: 1 breaking, 1 compatible, 1 wording',
        '  wording     tool "lookup_order": description',
        '                Look up an order by its [-id-]{+number+}.',
        '  compatible  tool "notify": added',
        '  breaking    tool "refund": parameter "reason" enum narrowed: "other" removed',
        '',
      ].join('\n'),
      stderr: '',
    })
  })

  it('exits 0 when nothing differs, and when only classes not given to --fail do', () => {
    const cwd = project([REFUND, LOOKUP])
    expect(runCli(['tools', 'diff', RUN, 'a.tools.json'], cwd)).toEqual({
      code: 0,
      stdout: `- expected  ${RUN}\n+ actual    a.tools.json\n\nNo changes · 2 tools\n`,
      stderr: '',
    })
    writeFileSync(join(cwd, 'b.tools.json'), contractText([{ ...LOOKUP, description: 'Find an order.' }, REFUND]))
    expect(runCli(['tools', 'diff', 'a.tools.json', 'b.tools.json'], cwd).code).toBe(0)
    expect(runCli(['tools', 'diff', 'a.tools.json', 'b.tools.json', '--fail', 'breaking,wording'], cwd).code).toBe(1)
  })

  it('prints the diff as JSON with --json', () => {
    const { code, json } = runJson(['tools', 'diff', 'a.tools.json', 'refund-agent', '--fail', 'compatible'], project(DRIFTED))
    expect(code).toBe(1)
    expect(json).toEqual({
      expected: 'a.tools.json',
      actual: RUN,
      diff: {
        equal: false,
        changes: [
          {
            class: 'wording',
            tool: 'tool "lookup_order"',
            what: 'description',
            before: 'Look up an order by its id.',
            after: 'Look up an order by its number.',
          },
          { class: 'compatible', tool: 'tool "notify"', what: 'added' },
          { class: 'breaking', tool: 'tool "refund"', what: 'parameter "reason" enum narrowed: "other" removed' },
        ],
        invalid: [],
      },
      failed: true,
    })
  })

  it('flags a schema that is not valid JSON Schema, and does not crash', () => {
    const cwd = project([LOOKUP, { ...REFUND, parameters: { type: 'object', properties: { reason: { type: 'text' } } } }])
    const { code, stdout } = runCli(['tools', 'diff', 'a.tools.json', 'refund-agent'], cwd)
    expect(code).toBe(1)
    expect(stdout).toBe(
      [
        '- expected  a.tools.json',
        `+ actual    ${RUN}`,
        '',
        '1 change: 1 breaking',
        '  breaking    tool "refund": parameters changed to a schema that is not valid JSON Schema (properties.reason.type must be equal to one of the allowed values)',
        '',
        '  Not valid JSON Schema (recorded and compared as given):',
        '    tool "refund": its parameters are not valid JSON Schema (properties.reason.type must be equal to one of the allowed values)',
        '',
      ].join('\n'),
    )
  })

  it('exits 2 naming the file for a contract that does not parse or has another contract_version', () => {
    const cwd = project([LOOKUP])
    writeFileSync(join(cwd, 'v2.tools.json'), contractText([LOOKUP]).replace('"contract_version": 1', '"contract_version": 2'))
    expect(runCli(['tools', 'diff', 'a.tools.json', 'v2.tools.json'], cwd)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'reagent-flow tools diff: v2.tools.json is not a readable tool contract: it has "contract_version" 2, and this version of reagent-flow reads contract_version 1. ' +
        'Restore it from version control, or delete it and run the tests locally (or with vitest -u) to write it again.\n',
    })
    writeFileSync(join(cwd, 'broken.tools.json'), '{"contract_version": 1, "name": "x", "tools": [{"kind": "function"}]}')
    expect(runCli(['tools', 'diff', 'broken.tools.json', 'a.tools.json'], cwd).stderr).toBe(
      'reagent-flow tools diff: broken.tools.json is not a readable tool contract: tools[0] has no "name". ' +
        'Restore it from version control, or delete it and run the tests locally (or with vitest -u) to write it again.\n',
    )
  })

  it('exits 2 naming the valid classes for a --fail it does not know', () => {
    expect(runCli(['tools', 'diff', 'a.tools.json', 'a.tools.json', '--fail', 'cosmetic'], project([LOOKUP]))).toEqual({
      code: 2,
      stdout: '',
      stderr: 'reagent-flow tools diff: --fail takes breaking, compatible, wording (repeated, or separated with commas); got "cosmetic".\n',
    })
  })

  it('says so on stderr when a run records no tools offered', () => {
    const cwd = tempDir()
    writeFileSync(join(cwd, 'a.tools.json'), contractText([LOOKUP]))
    saveTrace(buildTrace('bare', [{ text: 'Hi.' }]), { traceDir: join(cwd, '.reagent') })
    const { code, stderr } = runCli(['tools', 'diff', 'a.tools.json', 'bare'], cwd)
    expect([code, stderr]).toEqual([
      1,
      `reagent-flow tools diff: ${join('.reagent', 'bare.trace.json')} records no tools offered (it has no tool_sets): it is compared as offering none.\n`,
    ])
  })
})
