/**
 * Commands the viewer prints for a user to paste ("Accept as golden"):
 * every word quoted for a POSIX shell when it needs it, so a name with
 * spaces, quotes, `$` or `>` is pasted as one word and never runs anything.
 */
import { shellQuote } from '../report/shell.js'
import { DEFAULT_TRACE_DIR, sanitizeName, TRACE_FILE_SUFFIX } from '../storage/index.js'
import { runFileOf } from './golden-of.js'
import type { RunSummary } from './types.js'

function joinPath(dir: string, id: string): string {
  return dir.endsWith('/') ? `${dir}${id}` : `${dir}/${id}`
}

/**
 * `npx reagent-flow approve <run>`: the run's name when it is the latest run
 * of its name at the top of the directory (what `approve` resolves a name
 * to), else the path of its file; `--dir` when the directory is not the
 * default one.
 */
export function approveCommand(dir: string, run: Pick<RunSummary, 'id' | 'name'>): string {
  const file = runFileOf(run.id)
  let byName = false
  try {
    byName = file === `${sanitizeName(run.name)}${TRACE_FILE_SUFFIX}`
  } catch {
    // A name with nothing usable in a file name: the path it is.
  }
  const ref = byName ? run.name : joinPath(dir, file)
  const dirOption = byName && dir !== DEFAULT_TRACE_DIR && dir !== `${DEFAULT_TRACE_DIR}/` ? ` --dir ${shellQuote(dir)}` : ''
  return `npx reagent-flow approve ${shellQuote(ref)}${dirOption}`
}
