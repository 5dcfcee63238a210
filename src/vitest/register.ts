/**
 * The side effect of importing `reagent-flow/vitest`: the matchers are added
 * to vitest's `expect` (package.json lists this file under `sideEffects`, so
 * bundlers keep the import).
 */
import { expect } from 'vitest'
import { reagentMatchers } from './matchers.js'

expect.extend(reagentMatchers)
