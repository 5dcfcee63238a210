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
    // no session records or replays because their shell says REAGENT_REPLAY, and no golden is written or
    // refused because the machine running the suite is a CI machine (CI) or the shell says REAGENT_UPDATE:
    // a test about CI's update mode sets CI itself.
    env: {
      REAGENT_TEST: '1',
      REAGENT_LEDGER_URL: '',
      REAGENT_LEDGER_TOKEN: '',
      REAGENT_PRICES: '',
      REAGENT_REPLAY: '',
      REAGENT_UPDATE: '',
      CI: '',
    },
    // Tests assert on ReagentWarnings through process.on('warning'); keep Node from also printing them.
    execArgv: ['--no-warnings'],
  },
})
