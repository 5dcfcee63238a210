/**
 * Runs once before the suite: without a PostgreSQL to test against, say so in
 * one line (the PostgreSQL store tests are skipped) and how to run them.
 */
export default function setup(): void {
  if (process.env.REAGENT_TEST_POSTGRES_URL) return
  process.stdout.write(
    'PostgreSQL store tests skipped: REAGENT_TEST_POSTGRES_URL is not set. Run them with: REAGENT_TEST_POSTGRES_URL=$(.ci/postgres) npm test\n',
  )
}
