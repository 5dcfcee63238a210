import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // e2e tests start child processes (vitest, the CLI); give them room on slow CI machines.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests write traces into temporary directories; nothing may land in the repository's own .reagent/.
    env: { REAGENT_TEST: '1' },
    // Tests assert on ReagentWarnings through process.on('warning'); keep Node from also printing them.
    execArgv: ['--no-warnings'],
  },
})
