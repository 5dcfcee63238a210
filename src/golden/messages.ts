/** What a golden comparison says: one wording for the matcher, `golden: true`, matchGolden and assertMatchesBaseline. */
import { relative } from 'node:path'
import { formatDiff } from '../diff/format.js'
import type { TraceDiff } from '../diff/types.js'
import { shellCommand } from '../report/shell.js'
import { DEFAULT_TRACE_DIR } from '../storage/index.js'
import type { Reconciliation, WriteDecision } from './reconcile.js'

/** `path` as a user would type it from the working directory. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path)
  return rel !== '' && !rel.startsWith('..') ? rel : path
}

/** The command that accepts a run as its golden: `reagent-flow approve [--add] <run file>` (quoted for a shell). */
export function acceptCommand(runPath: string, traceDir: string | undefined, { add = false }: { add?: boolean } = {}): string {
  const shown = traceDir === undefined ? undefined : shownPath(traceDir)
  const dir = shown === undefined || shown === DEFAULT_TRACE_DIR ? [] : ['--dir', shown]
  return shellCommand(['npx', 'reagent-flow', 'approve', ...dir, ...(add ? ['--add'] : []), shownPath(runPath)])
}

/** Which of a golden's accepted variants a comparison was with: from 1, of how many. */
export interface VariantPlace {
  index: number
  of: number
}

/**
 * The message of a failed comparison: a header line naming the trace and the
 * file (and, for a golden with several variants, the closest one), then the diff.
 */
export function mismatchMessage(name: string, path: string, diff: TraceDiff, variant?: VariantPlace): string {
  const header =
    variant === undefined || variant.of <= 1
      ? `Trace "${name}" does not match its golden baseline (${shownPath(path)}):`
      : `Trace "${name}" matches none of the ${variant.of} accepted variants of its golden baseline (${shownPath(path)}); the closest is variant ${variant.index}:`
  return `${header}\n${formatDiff(diff, { color: false })}`
}

/** How to accept the run: its exact approve commands when its file is known (as the golden, or as one more variant), else the update mode that rewrites goldens. */
function howToAccept(path: string, runPath: string | undefined, traceDir: string | undefined): string {
  const review = `then review and commit ${shownPath(path)}`
  if (runPath === undefined) return `If the new behaviour is right, run the tests with REAGENT_UPDATE=all (or vitest -u), ${review}.`
  return (
    `If the new behaviour is right, accept it (or run the tests with vitest -u), ${review}:\n  ${acceptCommand(runPath, traceDir)}\n` +
    `If it is right as well as the golden's (the agent may do either), add it as another accepted variant:\n  ${acceptCommand(runPath, traceDir, { add: true })}`
  )
}

/** `model and system prompt`: what an older golden lacked. */
const inputsText = (inputs: readonly string[]): string => inputs.join(' and ')

/** What a write did, in words. */
function writeMessage(name: string, at: string, decision: WriteDecision): string {
  const { before, after } = decision.variants
  if (decision.recorded !== undefined && decision.written === 'updated') {
    return (
      `Golden baseline for "${name}" at ${at} updated: ${inputsText(decision.recorded)} recorded ` +
      `(the golden predates comparing them; they are compared from now on). Review and commit it.`
    )
  }
  if (decision.written === 'created') return `Golden baseline for "${name}" written to ${at}. Review and commit it.`
  if (decision.written === 'unchanged') return `Golden baseline for "${name}" at ${at} is up to date.`
  if (decision.written === 'reformatted') {
    return `Golden baseline for "${name}" at ${at}: golden format updated (update mode "all"): the same behaviour, rewritten from an older form in the current one. Review and commit it.`
  }
  if (after > 1) return `Golden baseline for "${name}" at ${at}: variant ${decision.variant} of ${after} rewritten (update mode "all"). Review and commit it.`
  if (before > 1) {
    return (
      `Golden baseline for "${name}" rewritten at ${at} (update mode "all"): the run matched none of its ${before} accepted variants and is its one variant now. ` +
      `Review and commit it; to keep the other variants, accept the run with reagent-flow approve --add instead.`
    )
  }
  return `Golden baseline for "${name}" rewritten at ${at} (update mode "all"). Review and commit it.`
}

export function outcomeMessage(name: string, path: string, outcome: Reconciliation, runPath?: string, traceDir?: string): string {
  const at = shownPath(path)
  switch (outcome.action) {
    case 'fail':
      return (
        `No golden baseline for "${name}" at ${at}, and goldens are not written when the update mode is "none" ` +
        `(the default when CI is set). Record it locally (run the tests without CI, or with REAGENT_UPDATE=new) and commit ${at}.`
      )
    case 'write':
      return writeMessage(name, at, outcome)
    case 'compare': {
      const variant = { index: outcome.variant, of: outcome.variants }
      if (!outcome.pass) return `${mismatchMessage(name, path, outcome.diff, variant)}\n\n${howToAccept(path, runPath, traceDir)}`
      const matched =
        variant.of > 1
          ? `Trace "${name}" matches variant ${variant.index} of the ${variant.of} accepted variants of its golden baseline (${at}).`
          : `Trace "${name}" matches its golden baseline (${at}).`
      if (outcome.unrecorded === undefined) return matched
      return (
        `${matched} The golden predates comparing the ${inputsText(outcome.unrecorded)} of each call, which it does not record; ` +
        `goldens are not written when the update mode is "none": run the tests locally (or with REAGENT_UPDATE=new) to record them, and commit ${at}.`
      )
    }
  }
}
