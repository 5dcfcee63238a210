/** What a golden comparison says: one wording for the matcher, `golden: true`, matchGolden and assertMatchesBaseline. */
import { relative } from 'node:path'
import { formatDiff } from '../diff/format.js'
import type { TraceDiff } from '../diff/types.js'
import { shellCommand } from '../report/shell.js'
import { DEFAULT_TRACE_DIR } from '../storage.js'
import type { Reconciliation } from './reconcile.js'

/** `path` as a user would type it from the working directory. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path)
  return rel !== '' && !rel.startsWith('..') ? rel : path
}

/** The command that accepts a run as its golden: `reagent-flow approve <run file>` (quoted for a shell). */
export function acceptCommand(runPath: string, traceDir: string | undefined): string {
  const shown = traceDir === undefined ? undefined : shownPath(traceDir)
  const dir = shown === undefined || shown === DEFAULT_TRACE_DIR ? [] : ['--dir', shown]
  return shellCommand(['npx', 'reagent-flow', 'approve', ...dir, shownPath(runPath)])
}

/** The message of a failed comparison: a header line naming the trace and the file, then the diff. */
export function mismatchMessage(name: string, path: string, diff: TraceDiff): string {
  return `Trace "${name}" does not match its golden baseline (${shownPath(path)}):\n${formatDiff(diff, { color: false })}`
}

/** How to accept the run: its exact approve command when its file is known, else the update mode that rewrites goldens. */
function howToAccept(path: string, runPath: string | undefined, traceDir: string | undefined): string {
  const review = `then review and commit ${shownPath(path)}`
  if (runPath === undefined) return `If the new behaviour is right, run the tests with REAGENT_UPDATE=all (or vitest -u), ${review}.`
  return `If the new behaviour is right, accept it (or run the tests with vitest -u), ${review}:\n  ${acceptCommand(runPath, traceDir)}`
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
      if (outcome.written === 'created') return `Golden baseline for "${name}" written to ${at}. Review and commit it.`
      if (outcome.written === 'updated') return `Golden baseline for "${name}" rewritten at ${at} (update mode "all"). Review and commit it.`
      return `Golden baseline for "${name}" at ${at} is up to date.`
    case 'compare':
      if (outcome.pass) return `Trace "${name}" matches its golden baseline (${at}).`
      return `${mismatchMessage(name, path, outcome.diff)}\n\n${howToAccept(path, runPath, traceDir)}`
  }
}
