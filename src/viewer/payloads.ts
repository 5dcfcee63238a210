/**
 * What the page asks the server for, built from the index: one run whole
 * (with its agent stack trace when it failed or did not finish), and a diff
 * with both traces. The static report builds the same payloads.
 */
import { diffTraces } from '../diff/diff-traces.js'
import { resolveDiffOptions } from '../diff/options.js'
import type { DiffOptions } from '../diff/types.js'
import { compareWithGolden, renderGolden } from '../golden/index.js'
import { formatStackTrace } from '../report/stack-trace.js'
import { encodeMessages } from '../trace/messages.js'
import type { Trace } from '../trace/types.js'
import { ViewerRequestError } from './errors.js'
import { runSpend } from './run-spend.js'
import { approveCommand } from './shell-words.js'
import type { TraceIndex } from './trace-index.js'
import type { CompactTrace, DiffPayload, DiffRequest, RunPayload, RunSummary } from './types.js'

/** `trace` with each call's messages as a file writes them: the new ones, and `messages_base` (see trace/messages.ts). */
export function compactTrace(trace: Trace): CompactTrace {
  const { turns } = trace
  return {
    ...trace,
    turns: turns.map((turn, at) => {
      const call = encodeMessages(turns, at)
      return call === turn.llm_call ? turn : { ...turn, llm_call: call }
    }),
  }
}

/** The agent stack trace of a run that failed or did not finish; null for the others. */
export function stackTraceOf(summary: RunSummary, trace: Trace): string | null {
  const stopped = summary.status === 'failed' || summary.status === 'cancelled' || summary.status === 'interrupted'
  return stopped || summary.error !== null ? formatStackTrace(trace, { color: false }) : null
}

function summaryOf(index: TraceIndex, id: string | undefined, what: string): RunSummary {
  if (id === undefined || id === '') throw new ViewerRequestError('bad_request', `name the ${what}: ?${what}=<file relative to the trace directory>`)
  const summary = index.get(id)
  if (summary === undefined) throw new ViewerRequestError('not_found', `there is no trace ${JSON.stringify(id)} in ${index.dir}; the Runs page lists them`)
  return summary
}

function traceOf(index: TraceIndex, summary: RunSummary): Trace {
  try {
    const trace = index.trace(summary.id)
    if (trace !== undefined) return trace
  } catch (error) {
    throw new ViewerRequestError('unreadable', `${summary.id} is not a readable trace any more: ${error instanceof Error ? error.message : String(error)}`)
  }
  throw new ViewerRequestError('not_found', `${summary.id} is gone from ${index.dir}`)
}

export function runPayload(index: TraceIndex, id: string | undefined): RunPayload {
  const summary = summaryOf(index, id, 'id')
  const trace = traceOf(index, summary)
  const spend = summary.kind === 'run' ? runSpend(index, trace) : undefined
  return { summary, trace: compactTrace(trace), stack_trace: stackTraceOf(summary, trace), ...(spend === undefined ? {} : { spend }) }
}

/** The options of a diff request as `diffTraces` takes them (as `reagent-flow diff` reads its flags). */
export function diffOptionsOf(request: Pick<DiffRequest, 'mode' | 'args' | 'ignore'>): DiffOptions {
  const ignore = (request.ignore ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
  const options: DiffOptions = {}
  if (request.mode !== undefined && request.mode !== '') options.mode = request.mode as NonNullable<DiffOptions['mode']>
  if (request.args !== undefined && request.args !== '') options.args = request.args as NonNullable<DiffOptions['args']>
  if (ignore.length > 0) options.ignore = ignore
  return options
}

/** The request's diff options resolved, or a 400 naming the one the diff does not take. */
export function checkedDiffOptions(request: DiffRequest): ReturnType<typeof resolveDiffOptions> {
  try {
    return resolveDiffOptions(diffOptionsOf(request), 'diff')
  } catch (error) {
    throw new ViewerRequestError('bad_request', (error as Error).message)
  }
}

export function diffPayload(index: TraceIndex, request: DiffRequest): DiffPayload {
  const actual = summaryOf(index, request.actual, 'actual')
  const options = checkedDiffOptions(request)
  const actualTrace = traceOf(index, actual)
  const actualSide = { id: actual.id, kind: actual.kind, name: actual.name, trace: compactTrace(actualTrace) }
  if (request.expected !== undefined && request.expected !== '') {
    const expected = summaryOf(index, request.expected, 'expected')
    const expectedTrace = traceOf(index, expected)
    return {
      expected: { id: expected.id, kind: expected.kind, name: expected.name, trace: compactTrace(expectedTrace) },
      actual: actualSide,
      diff: diffTraces(expectedTrace, actualTrace, diffOptionsOf(request)),
      approve_command: null,
    }
  }
  const goldenId = actual.golden?.id ?? null
  const approve = actual.kind === 'run' ? approveCommand(index.dir, actual) : null
  const text = goldenId === null ? null : index.goldenText(goldenId)
  if (goldenId === null || text === null) {
    throw new ViewerRequestError('not_found', `"${actual.name}" has no golden baseline yet: review the run, then ${approve ?? 'approve it'}`)
  }
  let compared
  try {
    compared = compareWithGolden({ path: index.pathOf(goldenId), text }, renderGolden(actualTrace).trace, options)
  } catch (error) {
    throw new ViewerRequestError('unreadable', (error as Error).message)
  }
  const golden = index.get(goldenId)!
  return {
    expected: { id: golden.id, kind: 'golden', name: golden.name, trace: compactTrace(compared.expected) },
    actual: actualSide,
    diff: compared.diff,
    approve_command: approve,
  }
}
