import { afterAll, describe } from 'vitest'
import { describeConformance } from './conformance/index.js'
import { POSTGRES_URL, postgresLedgers } from './harness.js'

describe.skipIf(POSTGRES_URL === undefined)('PostgreSQL store', () => {
  const ledgers = postgresLedgers()
  afterAll(ledgers.drop)
  describeConformance('PostgreSQL store', ledgers.start)
})
