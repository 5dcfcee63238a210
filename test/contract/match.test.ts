import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { assertToolContract, matchToolContract, type ToolDefinition, type Trace } from '../../src/entries/index.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'

const LOOKUP: ToolDefinition = {
  name: 'lookup_order',
  kind: 'function',
  description: 'Look up an order by its id.',
  parameters: { properties: { order_id: { type: 'string' } }, required: ['order_id'], type: 'object' },
}

/** A run of refund-agent whose one model call offered `tools`, built by hand as an adapter records them. */
function runOffering(tools: ToolDefinition[]): Trace {
  const trace = buildTrace('refund-agent', [{ text: 'Refunded.' }])
  trace.tool_sets = { ts_0123456789ab: tools }
  trace.turns[0]!.llm_call.tool_set = 'ts_0123456789ab'
  return trace
}

const CONTRACT_TEXT = `{
  "contract_version": 1,
  "name": "refund-agent",
  "tools": [
    {
      "description": "Look up an order by its id.",
      "kind": "function",
      "name": "lookup_order",
      "parameters": {
        "properties": {
          "order_id": {
            "type": "string"
          }
        },
        "required": [
          "order_id"
        ],
        "type": "object"
      }
    }
  ]
}
`

/** A trace directory whose refund-agent contract holds LOOKUP. */
function withContract(): { traceDir: string; path: string } {
  const traceDir = tempDir()
  const result = matchToolContract(runOffering([LOOKUP]), { traceDir, update: 'new' })
  return { traceDir, path: result.path }
}

describe('matchToolContract under the update modes', () => {
  it('writes a missing contract (mode new): sorted, 2-space JSON, a final newline', () => {
    const traceDir = tempDir()
    const result = matchToolContract(runOffering([LOOKUP]), { traceDir, update: 'new' })
    const path = join(traceDir, 'contracts', 'refund-agent.tools.json')
    expect([result.pass, result.outcome, result.path, result.message]).toEqual([
      true,
      'written',
      path,
      `Tool contract for "refund-agent" written to ${path}. Review and commit it.`,
    ])
    expect(readFileSync(path, 'utf8')).toBe(CONTRACT_TEXT)
  })

  it('never writes one under CI (mode none): it fails, naming the file and how to write it', () => {
    const traceDir = tempDir()
    const result = matchToolContract(runOffering([LOOKUP]), { traceDir, update: 'none' })
    const path = join(traceDir, 'contracts', 'refund-agent.tools.json')
    expect([result.pass, result.outcome, existsSync(path)]).toEqual([false, 'missing', false])
    expect(result.message).toBe(
      `No tool contract for "refund-agent" at ${path}, and contracts are not written when the update mode is "none" (the default when CI is set). ` +
        `Record it locally (run the tests without CI, or with REAGENT_UPDATE=new) and commit ${path}.`,
    )
  })

  it('fails on a reworded description by default, with the word diff, and leaves the contract alone', () => {
    const { traceDir, path } = withContract()
    const result = matchToolContract(runOffering([{ ...LOOKUP, description: 'Look up an order by its number.' }]), { traceDir, update: 'none' })
    expect([result.pass, result.outcome]).toEqual([false, 'failed'])
    expect(result.message).toBe(
      [
        `The tools "refund-agent" offers the model do not match its tool contract (${path}): 1 wording.`,
        '  wording     tool "lookup_order": description',
        '                Look up an order by its [-id-]{+number+}.',
        '',
        `If the new tools are right, run the tests with vitest -u (or REAGENT_UPDATE=all), then review and commit ${path}. ` +
          `To let wording changes pass, allow them: { allow: ['wording'] }.`,
      ].join('\n'),
    )
    expect(readFileSync(path, 'utf8')).toBe(CONTRACT_TEXT)
  })

  it('passes the classes given in allow, and fails on the others', () => {
    const { traceDir, path } = withContract()
    const notify: ToolDefinition = { name: 'notify', kind: 'function', description: null, parameters: null }
    const added = matchToolContract(runOffering([LOOKUP, notify]), { traceDir, update: 'new', allow: ['compatible'] })
    expect([added.pass, added.outcome, added.message]).toEqual([
      true,
      'matched',
      `The tools "refund-agent" offers the model match its tool contract (${path}) (allowed: 1 compatible).`,
    ])
    const removed = matchToolContract(runOffering([notify]), { traceDir, update: 'new', allow: ['compatible', 'wording'] })
    expect([removed.pass, removed.message.split('\n').slice(0, 3)]).toEqual([
      false,
      [
        `The tools "refund-agent" offers the model do not match its tool contract (${path}): 1 breaking, 1 compatible.`,
        '  breaking    tool "lookup_order": removed',
        '  compatible  tool "notify": added',
      ],
    ])
  })

  it('rewrites the contract under mode all, and leaves the same bytes alone', () => {
    const { traceDir, path } = withContract()
    const reworded = runOffering([{ ...LOOKUP, description: 'Find an order.' }])
    expect(matchToolContract(reworded, { traceDir, update: 'all' })).toMatchObject({
      pass: true,
      outcome: 'updated',
      message: `Tool contract for "refund-agent" rewritten at ${path} (update mode "all"). Review and commit it.`,
    })
    expect(readFileSync(path, 'utf8')).toBe(CONTRACT_TEXT.replace('Look up an order by its id.', 'Find an order.'))
    expect(matchToolContract(reworded, { traceDir, update: 'all' })).toMatchObject({
      outcome: 'unchanged',
      message: `Tool contract for "refund-agent" at ${path} is up to date.`,
    })
  })

  it('refuses to write a contract for a run that recorded no tools offered', () => {
    const traceDir = tempDir()
    const result = matchToolContract(buildTrace('refund-agent', [{ text: 'Refunded.' }]), { traceDir, update: 'new' })
    expect([result.pass, result.outcome, result.message]).toEqual([
      false,
      'failed',
      `Run "refund-agent" offered the model no tools that were recorded (its trace has no tool_sets), so there is no tool contract to write at ${join(traceDir, 'contracts', 'refund-agent.tools.json')}. ` +
        'Match the contract of a run whose agent offers tools, recorded through a reagent-flow adapter.',
    ])
  })
})

describe('contract files that cannot be read', () => {
  it('is a ContractFileError naming the file when it is not JSON', () => {
    const { traceDir, path } = withContract()
    const text = '{ "contract_version": 1,'
    writeFileSync(path, text)
    // The parser's own words, which differ between Node versions.
    const parserSays = (() => {
      try {
        return JSON.parse(text)
      } catch (error) {
        return (error as Error).message
      }
    })()
    expect(() => matchToolContract(runOffering([LOOKUP]), { traceDir, update: 'none' })).toThrow(
      `${path} is not a readable tool contract: it is not JSON (${parserSays}). ` +
        'Restore it from version control, or delete it and run the tests locally (or with vitest -u) to write it again.',
    )
  })

  it('is a ContractFileError naming the file when it has another contract_version', () => {
    const { traceDir, path } = withContract()
    writeFileSync(path, CONTRACT_TEXT.replace('"contract_version": 1', '"contract_version": 2'))
    expect(() => matchToolContract(runOffering([LOOKUP]), { traceDir, update: 'new' })).toThrow(
      `${path} is not a readable tool contract: it has "contract_version" 2, and this version of reagent-flow reads contract_version 1. ` +
        'Restore it from version control, or delete it and run the tests locally (or with vitest -u) to write it again.',
    )
  })
})

describe('assertToolContract', () => {
  it('throws an AssertionError with the diff when the tools drifted, and returns the comparison when they match', () => {
    const { traceDir } = withContract()
    expect(assertToolContract(runOffering([LOOKUP]), { traceDir })).toMatchObject({ pass: true, outcome: 'matched' })
    const retyped = { ...LOOKUP, parameters: { properties: { order_id: { type: 'integer' } }, required: ['order_id'], type: 'object' } }
    expect(() => assertToolContract(runOffering([retyped]), { traceDir })).toThrow(
      expect.objectContaining({
        name: 'AssertionError',
        assertion: '"refund-agent" does not match its tool contract (1 breaking)',
        message: expect.stringContaining('  breaking    tool "lookup_order": parameter "order_id" retyped from string to integer\n'),
      }),
    )
  })

  it('names an unknown option and the valid ones', () => {
    expect(() => assertToolContract(runOffering([LOOKUP]), { traceDir: tempDir(), allow: ['cosmetic' as never] })).toThrow(
      `assertToolContract(): option "allow" must be a list of "breaking", "compatible", "wording"; got ["cosmetic"].`,
    )
  })
})
