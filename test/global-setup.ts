/**
 * Runs once before the suite: without a PostgreSQL to test against, or
 * without Chromium, say so in one line (those tests are skipped) and how to
 * run them.
 */
import { CHROMIUM, runBrowserTests } from './helpers/chromium.js'

export default function setup(): void {
  if (!runBrowserTests) {
    process.stdout.write(
      `Browser tests of the viewer skipped: ${CHROMIUM} is not installed. Run them after: apt-get install chromium (or .ci/chromium as root)\n`,
    )
  }
  if (process.env.REAGENT_TEST_POSTGRES_URL) return
  process.stdout.write(
    'PostgreSQL store tests skipped: REAGENT_TEST_POSTGRES_URL is not set. Run them with: REAGENT_TEST_POSTGRES_URL=$(.ci/postgres) npm test\n',
  )
}
