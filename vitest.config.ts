import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // e2e tests start child processes (vitest, the CLI); give them room on slow CI machines.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests write traces into temporary directories; nothing may land in the repository's own .reagent/,
    // no session reports to a ledger the developer's shell points at, no price file of theirs is read,
    // and no session records or replays because their shell says REAGENT_REPLAY.
    env: { REAGENT_TEST: '1', REAGENT_LEDGER_URL: '', REAGENT_LEDGER_TOKEN: '', REAGENT_PRICES: '', REAGENT_REPLAY: '' },
    // Tests assert on ReagentWarnings through process.on('warning'); keep Node from also printing them.
    execArgv: ['--no-warnings'],
  },
})
