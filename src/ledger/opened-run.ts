/**
 * What run.begin sends of a run, taken as its session opens: the reporter is
 * loaded after (ledger/session-feature.ts), and the run goes on meanwhile.
 */
import type { JsonObject, Trace } from '../trace/types.js'

export interface OpenedRun {
  trace_id: string
  name: string
  user_id: string | undefined
  session_id: string | null | undefined
  metadata: JsonObject
  test_file: string | undefined
  test_name: string | undefined
}

/** The fields of `trace` (just opened) that run.begin sends. */
export function openedRun(trace: Trace): OpenedRun {
  return {
    trace_id: trace.trace_id,
    name: trace.name,
    user_id: trace.user_id ?? undefined,
    session_id: trace.session_id,
    metadata: { ...trace.metadata },
    test_file: typeof trace.test_file === 'string' ? trace.test_file : undefined,
    test_name: typeof trace.test_name === 'string' ? trace.test_name : undefined,
  }
}
