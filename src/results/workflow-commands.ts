/**
 * GitHub Actions workflow commands for a run's results: an `::error` line
 * for each failing agent test, which GitHub shows on the test's line of the
 * pull request's diff and on the run's page. Pure: the reporter prints them.
 *
 * Escaped by the rules of GitHub's runner (actions/toolkit `command.ts`):
 * in the message `%`, CR and LF; in a property also `:` and `,`, which
 * would otherwise end the property.
 */
import type { RunResults } from './types.js'

/** A message of a workflow command, escaped. */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/** A property value of a workflow command, escaped. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/**
 * One `::error file=…,line=…,title=…::…` line for each failing agent test
 * (a test with runs): the file as `repoPath` gives it (relative to the
 * repository's root, so GitHub can place it), the line when the results know
 * it, the test's name as title and its first failing assertion as message.
 */
export function failureAnnotations(results: RunResults, repoPath: (file: string) => string): string[] {
  return results.tests
    .filter((test) => test.outcome === 'failed' && test.runs.length > 0)
    .map((test) => {
      const properties = [`file=${escapeCommandProperty(repoPath(test.file))}`]
      if (test.line !== null) properties.push(`line=${test.line}`)
      properties.push(`title=${escapeCommandProperty(`agent test failed: ${test.name}`)}`)
      return `::error ${properties.join(',')}::${escapeCommandData(test.failure ?? 'the test failed with no error message')}`
    })
}
