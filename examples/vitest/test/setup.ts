// test/setup.ts
import 'reagent-flow/vitest'
