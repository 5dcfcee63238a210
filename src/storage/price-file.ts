/**
 * The price table with its price file read from disk: the table and the
 * file's format are the trace layer's (trace/prices.ts); reading the file is
 * storage's, handed in.
 */
import type { ModelCost } from '../trace/cost.js'
import { readDefaultPriceTable, readPriceTable } from '../trace/prices.js'
import { readTextOrNull } from './atomic-write.js'

/**
 * The built-in table with the entries of the price file `file` added over it.
 * `option` names where the file came from in errors (`--prices`,
 * `REAGENT_PRICES`). Throws `UsageError` naming the file and the entry at fault.
 */
export function loadPriceTable(file?: string, option = '--prices'): Map<string, ModelCost> {
  return readPriceTable(readTextOrNull, file, option)
}

/** The table used where none is given: the built-in one, with the file named by `REAGENT_PRICES` over it (read once per file name). */
export function defaultPriceTable(): ReadonlyMap<string, ModelCost> {
  return readDefaultPriceTable(readTextOrNull)
}
