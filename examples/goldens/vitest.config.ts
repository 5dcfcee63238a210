// vitest.config.ts
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    setupFiles: ['reagent-flow/vitest'],
    // ['reagent-flow/vitest/reporter', { traceDir: 'test/.traces' }] for another traceDir
    reporters: ['default', 'reagent-flow/vitest/reporter'],
  },
})
