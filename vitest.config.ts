import { configDefaults, defineConfig } from 'vitest/config'

/**
 * End-to-end tests: they pack the package, copy sample projects and run vitest and the CLI in child
 * processes (minutes). The docs' examples are one of them in all but their folder: every page's
 * examples run under a child vitest in a scratch project. Beside them, the tests that live next to the
 * code they cover but cost seconds a file for a reason of their own: they start processes, need a
 * PostgreSQL, or load the machine on purpose. The `unit` project is everything else (note 056).
 */
const E2E = [
  'test/e2e/**/*.test.ts',
  'test/docs/examples.test.ts',
  // The built CLI run as a child process (test/cli/run-cli.ts): one Node start per command.
  'test/cli/**/*.test.ts',
  'test/ledger/serve-command.test.ts',
  'test/ledger/ledger-prune-command.test.ts',
  'test/ledger/directory-prune.test.ts',
  'test/viewer/view-command.test.ts',
  // Writers in child processes, and Python reading what we write.
  'test/storage/concurrent-writes.test.ts',
  'test/compat/python-reader.test.ts',
  'test/adapters/openai/python-compat.test.ts',
  // SciPy recomputing the comparison's expected p-values from their samples.
  'test/compare/scipy-now.test.ts',
  // Both ledger stores, PostgreSQL's against REAGENT_TEST_POSTGRES_URL (skipped without it).
  'test/ledger/postgres-*.test.ts',
  'test/ledger/run-origin.test.ts',
  'test/redact/ledger-leak-corpus.test.ts',
  // 40 gzip bodies inflating to 60 MB each at once: the 256 MB budget is only proven over it.
  'test/server/gzip-budget.test.ts',
]
/** The viewer driven in Chromium (test/helpers/browser.ts). */
const BROWSER = ['test/**/*.browser.test.ts']

/** What every project's tests run with, so that a file runs the same whichever project (or script) runs it. */
const common = {
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
}

// `vitest run` runs the three projects (npm test); `--project unit` is the quick loop (npm run test:unit),
// `--project e2e --project browser` the rest (npm run test:e2e).
export default defineConfig({
  test: {
    // The root's global setup runs once whichever projects run; a project's own would run once per project.
    globalSetup: ['test/global-setup.ts'],
    projects: [
      { test: { ...common, name: 'unit', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...E2E, ...BROWSER] } },
      { test: { ...common, name: 'e2e', include: E2E } },
      { test: { ...common, name: 'browser', include: BROWSER } },
    ],
  },
})
