export { createLedgerClient } from '../ledger/client.js'
export { ledgerSent } from '../ledger/ledger-sent.js'
export { LedgerError, isLedgerError } from '../ledger/errors.js'
export {
  OPERATION_INPUTS,
  RUN_BEGIN_INPUT,
  RUN_COMPLETE_INPUT,
  RUN_GET_INPUT,
  RUN_GRADE_INPUT,
  RUN_LIST_INPUT,
  TRACE_PUT_INPUT,
  RESULTS_PUT_INPUT,
  RESULTS_LIST_INPUT,
  RUN_STATS_INPUT,
  MAX_RESULTS_LIMIT,
  RUN_OPERATIONS,
  LIST_ORDERS,
  MAX_LIST_LIMIT,
  MAX_LIST_OFFSET,
} from '../ledger/input-schemas.js'
export { OPERATION_OUTPUTS } from '../ledger/output-schemas.js'
export { RUN_ROW_SCHEMA, RUN_ROW_FIELDS, RUN_STATUSES } from '../ledger/run-row.js'

export type { LedgerClient, LedgerClientOptions } from '../ledger/client.js'
export type { LedgerErrorBody, LedgerErrorCode } from '../ledger/errors.js'
export type { OperationName, RunOperationName } from '../ledger/input-schemas.js'
export type {
  RunBeginInput,
  RunCompleteInput,
  RunGetInput,
  RunGradeInput,
  RunListInput,
  TraceGetInput,
  TracePutInput,
  ResultsPutInput,
  ResultsListInput,
  RunPruneInput,
  RunStatsInput,
} from '../ledger/input-types.js'
export type {
  RunBeginResult,
  RunCompleteResult,
  RunGetResult,
  RunGradeResult,
  RunPruneResult,
  RunStatsResult,
  RunStatsRow,
  RunListResult,
  TraceGetResult,
  TracePutResult,
  ResultsPutResult,
  ResultsListResult,
} from '../ledger/output-schemas.js'
export type { RunRow, RunRowField, RunStatus, Verdict } from '../ledger/run-row.js'
