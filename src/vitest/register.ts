/**
 * A side effect of importing `reagent-flow/vitest`: the matchers are added
 * to vitest's `expect`. Once per worker is enough (`expect` outlives test
 * files); the test scope, a hook of each test file, is registered by the
 * entry itself (entries/vitest.ts). The package's bundle holds this code in
 * that entry's file, which package.json lists under `sideEffects`, so
 * bundlers keep the import.
 */
import { expect } from 'vitest'
import { reagentMatchers } from './matchers.js'

expect.extend(reagentMatchers)
