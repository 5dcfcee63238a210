// vitest.config.ts
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    setupFiles: ['reagent-flow/vitest'], // the package itself, not a setup file of yours that imports it
    pool: 'threads',
    isolate: false,
  },
})
