// vitest.config.ts
import type {} from 'reagent-flow/vitest' // the type of provide.reagentFlow
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    setupFiles: ['reagent-flow/vitest'],
    provide: { reagentFlow: { replay: 'auto', replayTools: true, strict: true } },
  },
})
