/** `reagent-flow ci summary <results>`: the run's results as Markdown (the GitHub job summary's text) and JUnit XML, for any CI. */
import { resultsJunit } from '../../results/junit.js'
import { resultsMarkdown } from '../../results/markdown.js'
import { readResultsFile } from '../../results/results-file.js'
import { writeFileAtomic } from '../../storage/index.js'
import { stringOption } from '../args.js'
import { BASELINE_OPTIONS, baselineComparison } from '../baseline-options.js'
import { EXIT_OK, type Command } from '../command.js'

export const ciSummaryCommand: Command = {
  name: 'ci summary',
  args: '<results>',
  summary: 'write a results file as Markdown (the GitHub job summary) and as JUnit XML with agent figures, for any CI',
  details: [
    'Without --markdown or --junit the Markdown is printed. With --baseline it also says what changed against it (regression or noise, as `reagent-flow compare`).',
    'The Markdown tables the agent tests, failures first; the JUnit XML has a testsuite per file, a testcase per test,',
    'and properties with each agent test’s tokens, usd, turns, tool_calls, runs, pass_rate and golden.',
  ],
  options: {
    markdown: { type: 'string', value: '<file.md>', description: 'write the Markdown summary here' },
    junit: { type: 'string', value: '<file.xml>', description: 'write the JUnit XML here' },
    ...BASELINE_OPTIONS,
  },
  positionals: { min: 1, max: 1, names: 'results file' },
  examples: ['reagent-flow ci summary .reagent/results/results.json --markdown agents.md --junit agents.xml'],
  async run(input, ctx) {
    const file = input.positionals[0]!
    const results = readResultsFile(file)
    const comparison = await baselineComparison(input, file)
    const markdown = stringOption(input, 'markdown') || undefined
    const junit = stringOption(input, 'junit') || undefined
    if (markdown === undefined && junit === undefined) {
      ctx.write(resultsMarkdown(results, { comparison }))
      return EXIT_OK
    }
    if (markdown !== undefined) writeFileAtomic(markdown, resultsMarkdown(results, { comparison }))
    if (junit !== undefined) writeFileAtomic(junit, resultsJunit(results))
    if (ctx.json) ctx.printJson({ markdown: markdown ?? null, junit: junit ?? null })
    else {
      if (markdown !== undefined) ctx.print(`wrote the Markdown summary to ${markdown}`)
      if (junit !== undefined) ctx.print(`wrote the JUnit XML to ${junit}`)
    }
    return EXIT_OK
  },
}
