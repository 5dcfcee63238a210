import { ReagentError, isReagentErrorNamed } from './reagent-error.js'

/** A tool-contract file that cannot be read as one: not JSON, another `contract_version`, or not holding tools. */
export class ContractFileError extends ReagentError {
  override name = 'ContractFileError' as const
  readonly path: string

  constructor(path: string, problem: string) {
    super(
      `${path} is not a readable tool contract: ${problem}. ` +
        `Restore it from version control, or delete it and run the tests locally (or with vitest -u) to write it again.`,
    )
    this.path = path
  }
}

/**
 * True for a `ContractFileError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isContractFileError(value: unknown): value is ContractFileError {
  return isReagentErrorNamed(value, 'ContractFileError')
}
