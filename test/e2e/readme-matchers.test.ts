/**
 * The README's examples of the run helpers (section "Asserting") and of the
 * matchers users reach for (section "vitest"), as a user runs them: each is
 * kept in test/vitest/readme/ and shown byte for byte in the README, and
 * runs as a test file of a vitest project, reagent-flow resolved by its
 * public name to the built dist/.
 */
import { testReadmeExamples } from '../helpers/readme-examples.js'

testReadmeExamples({ sections: ['Asserting', 'vitest'], folder: 'test/vitest/readme', tests: 3 })
