// vitest.config.ts
import { reagentFlow } from 'reagent-flow/vitest/plugin'
import { defineConfig } from 'vitest/config'

export default defineConfig({ plugins: [reagentFlow()] })
