/**
 * The `diff` package, required the first time a difference is shown (a
 * failed assertion, a golden or replay miss, `diffTraces`), not at import:
 * its 30-odd modules cost 15-20 ms to load in every test file, and a passing
 * test never shows a difference. Required (its CommonJS build), so the
 * callers stay synchronous.
 */
import { createRequire } from 'node:module'
import type * as Diff from 'diff'

let loaded: typeof Diff | undefined

export function diffPackage(): typeof Diff {
  loaded ??= createRequire(import.meta.url)('diff') as typeof Diff
  return loaded
}
