/**
 * `toMatchToolContract()`: the tools the run offered the model against its
 * tool contract, written or compared as the update mode says (src/contract/
 * decides; run/tool-contract.ts places the file and tells the test runner).
 * Synchronous, as toMatchGolden: a failure fails the test at the assertion's line.
 */
import type { MatcherState } from 'vitest'
import { checkToolContract, type ToolContractOptions } from '../run/tool-contract.js'
import type { MatcherOutcome } from './outcome.js'

/** `-u` is vitest's one explicit update request; its other states are left to REAGENT_UPDATE and CI. */
function vitestUpdate(state: MatcherState): 'all' | undefined {
  return state.snapshotState?.snapshotUpdateState === 'all' ? 'all' : undefined
}

export function toMatchToolContract(this: MatcherState, received: unknown, options: ToolContractOptions = {}): MatcherOutcome {
  if (this.isNot) {
    throw new TypeError(
      'toMatchToolContract() cannot be used with .not: the tools offered either match their contract or are written as it. ' +
        'To check that two sets of tools differ, use expect(diffToolContracts(a, b).equal).toBe(false).',
    )
  }
  const result = checkToolContract('toMatchToolContract', received, options, vitestUpdate(this))
  return { pass: result.pass, message: () => result.message }
}
