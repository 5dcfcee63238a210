/**
 * The team viewer's run and diff payloads, from the ledger's own operations
 * (run.get, trace.get) so a token sees exactly what the API shows it. A
 * run's golden is the file the golden engine would compare it with
 * (`goldenIdsOf`, the rule of `matchGolden` and `approve`) in the server's
 * golden directory: the directory store's own trace directory, or with
 * PostgreSQL the trace directory (`--dir`) of the checkout the server runs
 * in. Without one, or without the file, the run has no golden.
 */
import { join } from 'node:path'
import type { RunGetResult } from '../ledger/output-schemas.js'
import type { ModelCost } from '../trace/cost.js'
import { compareWithGolden, renderGolden } from '../golden/index.js'
import { diffTraces } from '../diff/diff-traces.js'
import { readTextOrNull } from '../storage/index.js'
import type { Trace } from '../trace/types.js'
import { ViewerRequestError } from './errors.js'
import { goldenIdsOf, goldenStateOf } from './golden-of.js'
import type { LedgerRunPayload } from './ledger-types.js'
import { checkedDiffOptions, compactTrace, diffOptionsOf, stackTraceOf } from './payloads.js'
import { isFailing, summarizeTrace } from './summarize.js'
import type { DiffPayload, DiffRequest, RunSummary } from './types.js'

/** What the team viewer reads of the ledger, as the caller (the service's operations; their refusals are the caller's). */
export interface LedgerReads {
  get(runId: string): Promise<RunGetResult>
  /** The run's trace, null when it has none. */
  trace(runId: string): Promise<Trace | null>
}

export interface GoldenFile {
  /** Relative to the golden directory, `/` between folders. */
  id: string
  path: string
  text: string
}

/** The golden file of `trace` in `dir` (undefined: no directory, or no file where the engine files it). */
export function goldenFileOf(dir: string | undefined, trace: Trace): GoldenFile | undefined {
  if (dir === undefined) return undefined
  for (const id of goldenIdsOf(trace)) {
    const path = join(dir, id)
    const text = readTextOrNull(path)
    if (text !== null) return { id, path, text }
  }
  return undefined
}

function requireId(id: string | undefined, what: string): string {
  if (id === undefined || id === '') throw new ViewerRequestError('bad_request', `name the run: ?${what}=<run id>`)
  return id
}

async function requireRun(reads: LedgerReads, runId: string): Promise<RunGetResult & { run: NonNullable<RunGetResult['run']> }> {
  const got = await reads.get(runId)
  if (!got.found || got.run === null)
    throw new ViewerRequestError('not_found', `there is no run ${JSON.stringify(runId)} in this ledger that your token may see; the Runs page lists them`)
  return got as RunGetResult & { run: NonNullable<RunGetResult['run']> }
}

async function requireTrace(reads: LedgerReads, runId: string): Promise<Trace> {
  await requireRun(reads, runId)
  const trace = await reads.trace(runId)
  if (trace === null)
    throw new ViewerRequestError('not_found', `run ${JSON.stringify(runId)} has no trace in the ledger: its client never sent one with trace.put`)
  return trace
}

/** The trace's row as the run page draws it: the run id as its id, and its golden state. */
function summaryOf(runId: string, trace: Trace, prices: ReadonlyMap<string, ModelCost>, goldenDir: string | undefined): RunSummary {
  const summary = summarizeTrace(trace, runId, 'run', prices)
  const golden = goldenFileOf(goldenDir, trace)
  summary.golden = golden === undefined ? { state: 'none', id: null, changes: 0 } : { ...goldenStateOf(golden.path, golden.text, trace), id: golden.id }
  summary.failing = isFailing(summary)
  return summary
}

export async function ledgerRunPayload(
  runId: string | undefined,
  reads: LedgerReads,
  { prices, goldenDir }: { prices: ReadonlyMap<string, ModelCost>; goldenDir: string | undefined },
): Promise<LedgerRunPayload> {
  const id = requireId(runId, 'id')
  const got = await requireRun(reads, id)
  const trace = await reads.trace(id)
  const base = { run: got.run, cost_usd: got.cost_usd, unpriced_turns: got.unpriced_turns }
  if (trace === null) return { ...base, view: null }
  const summary = summaryOf(id, trace, prices, goldenDir)
  return { ...base, view: { summary, trace: compactTrace(trace), stack_trace: stackTraceOf(summary, trace) } }
}

/** A run against its golden (no `expected`), or against another run of the ledger. */
export async function ledgerDiffPayload(request: DiffRequest, reads: LedgerReads, goldenDir: string | undefined): Promise<DiffPayload> {
  const actualId = requireId(request.actual, 'actual')
  const options = checkedDiffOptions(request)
  const actual = await requireTrace(reads, actualId)
  const actualSide = { id: actualId, kind: 'run' as const, name: actual.name, trace: compactTrace(actual) }
  if (request.expected !== undefined && request.expected !== '') {
    const expected = await requireTrace(reads, request.expected)
    return {
      expected: { id: request.expected, kind: 'run', name: expected.name, trace: compactTrace(expected) },
      actual: actualSide,
      diff: diffTraces(expected, actual, diffOptionsOf(request)),
      approve_command: null,
    }
  }
  const golden = goldenFileOf(goldenDir, actual)
  if (golden === undefined) {
    const where = goldenDir === undefined ? 'this server keeps no golden directory' : `none is filed for it under ${join(goldenDir, 'golden')}`
    throw new ViewerRequestError('not_found', `"${actual.name}" has no golden baseline: ${where}`)
  }
  let compared
  try {
    compared = compareWithGolden({ path: golden.path, text: golden.text }, renderGolden(actual).trace, options)
  } catch (error) {
    throw new ViewerRequestError('unreadable', (error as Error).message)
  }
  return {
    expected: { id: golden.id, kind: 'golden', name: compared.expected.name, trace: compactTrace(compared.expected) },
    actual: actualSide,
    diff: compared.diff,
    approve_command: null,
  }
}
