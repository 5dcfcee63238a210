// vitest.config.ts
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    setupFiles: ['reagent-flow/vitest'],
    globalSetup: ['test/start-ledger.ts'], // a ledger for this test run; in CI, point REAGENT_LEDGER_URL at your team's instead
  },
})
