/**
 * Tool contracts: the tools a run offers the model, committed like a golden
 * and compared with a schema-aware diff whose every change is classified
 * (breaking, compatible, wording).
 */
export { matchToolContract } from './match.js'
export { diffToolContracts } from './contract-diff.js'
export { formatContractDiff, countsText } from './format.js'
export { parseContract } from './contract-file.js'
export { CHANGE_CLASSES } from './types.js'

export type { MatchToolContractOptions, MatchToolContractResult } from './match.js'
export type { ChangeClass, ContractChange, ContractDiff } from './types.js'
