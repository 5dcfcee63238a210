/**
 * `reagentFlow()` from `reagent-flow/vitest/plugin`: reagent-flow set up in
 * vitest with one line,
 *
 *   plugins: [reagentFlow()]
 *
 * It adds `reagent-flow/vitest` to the project's setup files (the matchers,
 * the test scope around every test, the project's replay defaults) and
 * `reagent-flow/vitest/reporter` to the run's reporters (the goldens of the
 * run summed up and listed once, obsolete goldens, the HTML report when
 * asked), each unless the config names it already. Its options are the
 * reporter's.
 *
 * Under GitHub Actions it also turns on vitest's `includeTaskLocation`
 * (unless the config sets it), so the results know each test's line and an
 * annotation lands on it; vitest then adds `:line:column` to its own FAIL
 * lines, which only the CI log shows (note 065). Not elsewhere: a
 * developer's terminal output stays as it was.
 */
import type { ViteUserConfig } from 'vitest/config'
import type { Vite, VitestPluginContext } from 'vitest/node'
import { isGitHubActions } from './github-actions.js'
import type { ReagentReporterOptions } from './reporter.js'

const SETUP_FILE = 'reagent-flow/vitest'
const REPORTER = 'reagent-flow/vitest/reporter'

export type ReagentFlowPluginOptions = ReagentReporterOptions

function namesSetupFile(config: ViteUserConfig): boolean {
  const setupFiles = config.test?.setupFiles
  return (typeof setupFiles === 'string' ? [setupFiles] : (setupFiles ?? [])).includes(SETUP_FILE)
}

export function reagentFlow(options: ReagentFlowPluginOptions = {}): Vite.Plugin {
  return {
    name: 'reagent-flow',
    // Before vitest resolves the config: the setup file is resolved as if the user had written it.
    config(config: ViteUserConfig) {
      const test: NonNullable<ViteUserConfig['test']> = {}
      if (!namesSetupFile(config)) test.setupFiles = [SETUP_FILE]
      const github = options.githubActions ?? isGitHubActions()
      if (github && config.test?.includeTaskLocation === undefined) test.includeTaskLocation = true
      return Object.keys(test).length === 0 ? undefined : { test }
    },
    // The reporters are the run's (a project's config cannot add one): added to the resolved config before they are created.
    configureVitest({ vitest }: VitestPluginContext) {
      const named = vitest.config.reporters.some((reporter) => Array.isArray(reporter) && reporter[0] === REPORTER)
      if (!named) vitest.config.reporters.push([REPORTER, { ...options }])
    },
  }
}
