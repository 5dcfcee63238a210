import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import '../../src/entries/vitest.js'
import type { ToolDefinition, Trace } from '../../src/entries/index.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'
import { matcherFailure } from './helpers.js'

type SnapshotState = ReturnType<typeof expect.getState>['snapshotState']

/** Makes the matcher see vitest's snapshot update state as `mode` (what `vitest -u` sets to 'all'). */
const setVitestUpdate = (mode: 'all' | 'new'): void => expect.setState({ snapshotState: { snapshotUpdateState: mode } as SnapshotState })

const LOOKUP: ToolDefinition = {
  name: 'lookup_order',
  kind: 'function',
  description: 'Look up an order by its id.',
  parameters: { properties: { order_id: { type: 'string' } }, required: ['order_id'], type: 'object' },
}

/** A run of refund-agent that offered `tools`, as an adapter records them. */
function runOffering(tools: ToolDefinition[]): Trace {
  const trace = buildTrace('refund-agent', [{ text: 'Refunded.' }])
  trace.tool_sets = { ts_0123456789ab: tools }
  trace.turns[0]!.llm_call.tool_set = 'ts_0123456789ab'
  return trace
}

const contractPath = (traceDir: string): string => join(traceDir, 'contracts', 'refund-agent.tools.json')

let info: ReturnType<typeof vi.spyOn>
let vitestState: SnapshotState
beforeEach(() => {
  // The update mode of this test run must not leak in: each test sets what it means.
  vi.stubEnv('CI', '')
  vi.stubEnv('REAGENT_UPDATE', '')
  vitestState = expect.getState().snapshotState
  setVitestUpdate('new')
  info = vi.spyOn(console, 'info').mockImplementation(() => undefined)
})
afterEach(() => {
  expect.setState({ snapshotState: vitestState })
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe('toMatchToolContract()', () => {
  it('writes a missing contract, passes, and says so in the test output', () => {
    const traceDir = tempDir()
    expect(runOffering([LOOKUP])).toMatchToolContract({ traceDir })
    expect(JSON.parse(readFileSync(contractPath(traceDir), 'utf8'))).toEqual({ contract_version: 1, name: 'refund-agent', tools: [LOOKUP] })
    expect(info).toHaveBeenCalledWith(`Tool contract for "refund-agent" written to ${contractPath(traceDir)}. Review and commit it.`)
  })

  it('fails at once on drift under the default update mode, and rewrites the contract under vitest -u', () => {
    const traceDir = tempDir()
    expect(runOffering([LOOKUP])).toMatchToolContract({ traceDir })
    const reworded = runOffering([{ ...LOOKUP, description: 'Find an order.' }])
    expect(matcherFailure(() => expect(reworded).toMatchToolContract({ traceDir })).message).toMatch(
      /^The tools "refund-agent" offers the model do not match its tool contract \(.*\): 1 wording\.\n {2}wording {5}tool "lookup_order": description\n/,
    )
    setVitestUpdate('all')
    expect(reworded).toMatchToolContract({ traceDir })
    expect(JSON.parse(readFileSync(contractPath(traceDir), 'utf8')).tools[0].description).toBe('Find an order.')
  })

  it('fails under CI when the contract is missing, and writes nothing', () => {
    vi.stubEnv('CI', 'true')
    const traceDir = tempDir()
    expect(matcherFailure(() => expect(runOffering([LOOKUP])).toMatchToolContract({ traceDir })).message).toBe(
      `No tool contract for "refund-agent" at ${contractPath(traceDir)}, and contracts are not written when the update mode is "none" (the default when CI is set). ` +
        `Record it locally (run the tests without CI, or with REAGENT_UPDATE=new) and commit ${contractPath(traceDir)}.`,
    )
  })

  it('throws a ContractFileError naming a contract file that does not parse', () => {
    const traceDir = tempDir()
    expect(runOffering([LOOKUP])).toMatchToolContract({ traceDir })
    writeFileSync(contractPath(traceDir), '[]')
    expect(() => expect(runOffering([LOOKUP])).toMatchToolContract({ traceDir })).toThrow(
      `${contractPath(traceDir)} is not a readable tool contract: it holds no JSON object.`,
    )
  })

  it('cannot be used with .not', () => {
    expect(() => expect(runOffering([LOOKUP])).not.toMatchToolContract({ traceDir: tempDir() })).toThrow(
      'toMatchToolContract() cannot be used with .not: the tools offered either match their contract or are written as it. ' +
        'To check that two sets of tools differ, use expect(diffToolContracts(a, b).equal).toBe(false).',
    )
  })

  it('names an unknown option and the valid ones', () => {
    expect(() => expect(runOffering([LOOKUP])).toMatchToolContract({ traceDir: tempDir(), alow: ['wording'] } as never)).toThrow(
      'toMatchToolContract(): unknown option "alow". Valid options: allow, traceDir, redact.',
    )
  })
})
