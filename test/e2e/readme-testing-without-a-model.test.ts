/**
 * The examples of the README's "Testing without a model" section, as a user
 * runs them: each is a test file of a vitest project (in a temporary
 * directory, reagent-flow resolved by its public name to the built dist/),
 * run by vitest as a child process. Each is also kept in test/fake/readme/
 * (as `.example.ts`, so `npm run typecheck` compiles it); the README shows
 * those files byte for byte.
 */
import { testReadmeExamples } from '../helpers/readme-examples.js'

testReadmeExamples({ sections: ['Testing without a model'], folder: 'test/fake/readme', tests: 6 })
