/**
 * The run `reagent-flow scaffold <ref>` turns into a test: a run of the
 * ledger at `--ledger <url>` (ref its run id, fetched with trace.get), the
 * one agent run of an OTLP/JSON file, or a run of the trace directory (a
 * trace file, a name, a trace_id: see resolve.ts).
 */
import { LedgerError } from '../../ledger/errors.js'
import { createLedgerClient } from '../../ledger/client.js'
import { UsageError } from '../../errors/index.js'
import { tracesFromSpans } from '../../otel/import-traces.js'
import { isFile, loadTrace, readTextOrNull } from '../../storage/index.js'
import { validateTrace } from '../../trace/validate.js'
import type { Trace } from '../../trace/types.js'
import { looksLikeOtlp, spansOfFile } from '../otlp-file.js'
import { resolveRun } from '../resolve.js'

export interface IncidentSource {
  trace: Trace
  /** Where the run came from, for the test file's header. */
  origin: string
}

async function fromLedger(url: string, runId: string, token: string | undefined): Promise<IncidentSource> {
  const client = createLedgerClient(url, { token })
  let answer: Awaited<ReturnType<typeof client.getTrace>>
  try {
    answer = await client.getTrace(runId)
  } catch (error) {
    if (error instanceof LedgerError && error.body?.error === 'run_not_found') {
      throw new UsageError(`the ledger at ${client.url} has no run "${runId}": ${error.body.message}`)
    }
    throw error
  }
  if (answer.trace === null) {
    throw new UsageError(
      `run "${runId}" of the ledger at ${client.url} has no trace: the session sends it with trace.put when it closes; scaffold a run that did`,
    )
  }
  // Checked as a trace file is when read: a ledger that kept something else must not reach the generated test.
  return { trace: validateTrace(answer.trace, `the trace of run "${runId}" in the ledger at ${client.url}`), origin: `ledger ${client.url}, run ${runId}` }
}

async function fromOtlp(file: string, text: string): Promise<IncidentSource> {
  const { traces } = await tracesFromSpans(spansOfFile(text, file), { source: file })
  const roots = traces.filter((trace) => trace.parent_trace_id === null)
  if (roots.length !== 1) {
    const names = roots.map((trace) => `"${trace.name}" (${trace.trace_id})`).join(', ')
    throw new UsageError(
      `${file} holds ${roots.length === 0 ? 'no agent run' : `${roots.length} agent runs: ${names}`}; scaffold takes one. ` +
        'Run "reagent-flow import" on it, then scaffold the run you mean by its name or trace_id.',
    )
  }
  return { trace: roots[0]!, origin: `OpenTelemetry spans ${file}` }
}

/** The run `ref` names: in the ledger at `ledger` when given, else an OTLP/JSON file or a run of `dir`. */
export async function loadIncident(ref: string, dir: string, ledger: { url: string; token: string | undefined } | undefined): Promise<IncidentSource> {
  if (ledger !== undefined) return fromLedger(ledger.url, ref, ledger.token)
  if (isFile(ref)) {
    const text = readTextOrNull(ref) ?? ''
    if (looksLikeOtlp(text)) return fromOtlp(ref, text)
  }
  const file = resolveRun(ref, dir)
  return { trace: loadTrace(file), origin: `trace file ${file}` }
}
