// vitest.config.ts
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    setupFiles: ['reagent-flow/vitest'],
    reporters: ['default', ['reagent-flow/vitest/reporter', { report: 'reagent-report.html' }]],
  },
})
