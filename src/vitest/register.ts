/**
 * The side effect of importing `reagent-flow/vitest`: the matchers are added
 * to vitest's `expect`, and every test of the file runs in a test scope (see
 * test-scope.ts). package.json lists this file under `sideEffects`, so
 * bundlers keep the import.
 */
import { expect } from 'vitest'
import { reagentMatchers } from './matchers.js'
import { registerTestScope } from './test-scope.js'

expect.extend(reagentMatchers)
registerTestScope()
