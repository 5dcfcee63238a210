/**
 * What the reporter adds under GitHub Actions (docs/ci.md, "GitHub Actions:
 * job summary, annotations and a pull-request comment"): the run's results as
 * Markdown appended to the job summary (`$GITHUB_STEP_SUMMARY`), and an
 * `::error` annotation for each failing agent test, at its file and line.
 *
 * vitest's own `github-actions` reporter (vitest adds it under GitHub Actions
 * when a config names no reporter) already annotates every failed test, at
 * its failing assertion's line: with it in the run, ours would be a second
 * annotation of the same failure (and GitHub shows 10 error annotations a
 * step), so we print none then (note 065).
 */
import { relative, resolve, sep } from 'node:path'
import type { Vitest } from 'vitest/node'
import { resultsMarkdownThatFits } from '../results/markdown.js'
import type { RunResults } from '../results/types.js'
import { failureAnnotations } from '../results/workflow-commands.js'
import { appendText } from '../storage/index.js'

/** GitHub takes 1 MiB of summary a step; half of it for ours leaves room for vitest's own and the step's others. */
const MAX_SUMMARY_BYTES = 512 * 1024

/** Whether the process runs as a step of GitHub Actions (the runner sets `GITHUB_ACTIONS=true`). */
export function isGitHubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GITHUB_ACTIONS === 'true'
}

/** Whether vitest's own github-actions reporter reports this run. */
function hasVitestGitHubReporter(vitest: Vitest): boolean {
  return vitest.config.reporters.some((reporter) => {
    const name = Array.isArray(reporter) ? reporter[0] : reporter
    return name === 'github-actions' || (typeof name === 'object' && name !== null && name.constructor.name === 'GithubActionsReporter')
  })
}

/** `file` (relative to the vitest root) relative to the repository's root, which GitHub places annotations by: the runner's checkout, `GITHUB_WORKSPACE`. */
function repoPathFor(root: string, env: NodeJS.ProcessEnv): (file: string) => string {
  const workspace = env.GITHUB_WORKSPACE || root
  return (file) => relative(workspace, resolve(root, file)).split(sep).join('/')
}

/** The job summary and the annotations of `results`; a summary that cannot be written is one error line, never a failed run. */
export function reportToGitHubActions(vitest: Vitest, results: RunResults, env: NodeJS.ProcessEnv = process.env): void {
  const summary = env.GITHUB_STEP_SUMMARY
  if (summary !== undefined && summary !== '') {
    try {
      appendText(summary, `${resultsMarkdownThatFits(results, (markdown) => Buffer.byteLength(markdown) <= MAX_SUMMARY_BYTES)}\n`)
    } catch (error) {
      vitest.logger.error(`reagent-flow: the job summary was not written: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  if (hasVitestGitHubReporter(vitest)) return
  for (const line of failureAnnotations(results, repoPathFor(vitest.config.root, env))) vitest.logger.log(line)
}
