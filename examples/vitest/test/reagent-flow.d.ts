// test/reagent-flow.d.ts
/// <reference types="reagent-flow/vitest" />
