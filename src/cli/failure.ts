/**
 * How a command that threw ends. What the user can fix (a `ReagentError`: a
 * usage mistake, a missing run, an unreadable file; or the file system or
 * the network refusing) is one line and exit 2. Anything else is a bug of
 * ours: it gets its stack, the version, and exit 70, so it is never mistaken
 * for a typo and can be reported (msw splits its errors the same way).
 */
import { isReagentError } from '../errors/index.js'
import { PACKAGE_VERSION } from '../base/package-version.js'

/** Causes shown below an internal error's own stack. */
const MAX_CAUSES = 5

/** Whether `error` is about what the command was given or the machine it runs on, not about reagent-flow's code. */
export function isUserFixable(error: unknown): boolean {
  if (isReagentError(error)) return true
  // The file system or the network said no (EACCES, EISDIR, ECONNREFUSED): told in one line like bad input.
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown }
  return typeof code === 'string' && typeof syscall === 'string'
}

/** An error as one line: the message without its line breaks. */
export function oneLineReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/\s*\n\s*/g, ' ').trim()
}

function stackOf(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`
  try {
    return `thrown value: ${String(error)}`
  } catch {
    return 'thrown value that cannot be shown'
  }
}

/** The report of a bug: what was running, the stack (and its causes), and what to do. Ends with a newline. */
export function describeInternalError(command: string, error: unknown): string {
  const lines = [`reagent-flow ${command}: internal error in reagent-flow ${PACKAGE_VERSION} (a bug, not a problem with your input):`, stackOf(error)]
  let cause = error instanceof Error ? error.cause : undefined
  for (let depth = 0; cause !== undefined && depth < MAX_CAUSES; depth++) {
    lines.push(`Caused by: ${stackOf(cause)}`)
    cause = cause instanceof Error ? cause.cause : undefined
  }
  lines.push('Please report it with the command you ran and this output.')
  return `${lines.join('\n')}\n`
}
