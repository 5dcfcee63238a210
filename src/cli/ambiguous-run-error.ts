/** A run named on the command line matches several runs of the trace directory. */
import { ReagentError } from '../errors/index.js'

/** One of the runs an ambiguous reference matched: its full name (inside vitest, its test key) and file. */
export interface RunCandidate {
  name: string
  file: string
}

/** Candidates named in the message; the rest are counted. */
const SHOWN = 10

export class AmbiguousRunError extends ReagentError {
  override name = 'AmbiguousRunError' as const
  /** What was given on the command line. */
  readonly ref: string
  readonly candidates: readonly RunCandidate[]

  /** `how`: what `ref` is of each candidate, `"names"`, `"ends the names of"`, `"starts the trace_id of"`; `pick`: how to pick one. */
  constructor(ref: string, how: string, candidates: readonly RunCandidate[], pick: string) {
    const shown = candidates.slice(0, SHOWN).map((run) => `"${run.name}" (${run.file})`)
    if (candidates.length > SHOWN) shown.push(`${candidates.length - SHOWN} more`)
    super(`"${ref}" ${how} ${candidates.length} runs: ${shown.join(', ')}. ${pick}`)
    this.ref = ref
    this.candidates = candidates
  }
}
