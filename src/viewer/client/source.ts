/**
 * Where the page's data comes from: the viewer's server (its JSON API and
 * its event stream), or the JSON a static report embeds. Pages ask one
 * interface and never know which.
 */
import { diffTraces } from '../../diff/diff-traces.js'
import type { DiffOptions } from '../../diff/types.js'
import type { ComparisonPayload, DiffPayload, DiffRequest, ReportData, RunPayload, RunsDelta, RunsPayload } from '../types.js'

export interface Source {
  /** `server`: live, from `reagent-flow view`; `report`: a file written by `reagent-flow report`. */
  kind: 'server' | 'report'
  /** When the report was written (epoch seconds); null for a server. */
  generatedAt: number | null
  runs(): Promise<RunsPayload>
  run(id: string): Promise<RunPayload>
  diff(request: DiffRequest): Promise<DiffPayload>
  /** Whether there is a comparison with a baseline (`--results` with `--baseline`): the Runs page links to it. */
  hasComparison: boolean
  comparison(): Promise<ComparisonPayload>
  /** Calls `onDelta` with each change; `onReset` when the picture must be read again (a reconnect). Returns how to stop. */
  subscribe(onDelta: (delta: RunsDelta) => void, onReset: () => void): () => void
}

/** GET `path` of the page's server with `params` (empty ones left out): the JSON, or an Error with the server's message. */
export async function getJson<T>(path: string, params: Readonly<Record<string, string | undefined>> = {}): Promise<T> {
  const search = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''))
  const response = await fetch(`${path}${search.size === 0 ? '' : `?${search}`}`, { headers: { accept: 'application/json' } })
  const body = (await response.json().catch(() => ({ message: `the server answered ${response.status}` }))) as T & { message?: string }
  if (!response.ok) throw new Error(body.message ?? `the server answered ${response.status}`)
  return body
}

export function serverSource(hasComparison: boolean): Source {
  return {
    kind: 'server',
    generatedAt: null,
    hasComparison,
    comparison: () => getJson<ComparisonPayload>('./api/comparison'),
    runs: () => getJson<RunsPayload>('./api/runs'),
    run: (id) => getJson<RunPayload>('./api/run', { id }),
    diff: (request) => getJson<DiffPayload>('./api/diff', { ...request }),
    subscribe(onDelta, onReset) {
      const events = new EventSource('./api/events')
      let connected = false
      events.addEventListener('hello', () => {
        // A second hello is a reconnect: changes may have been missed.
        if (connected) onReset()
        connected = true
      })
      events.addEventListener('change', (event) => onDelta(JSON.parse((event as MessageEvent<string>).data) as RunsDelta))
      return () => events.close()
    },
  }
}

function diffOptions(request: DiffRequest): DiffOptions {
  const options: DiffOptions = {}
  if (request.mode) options.mode = request.mode as NonNullable<DiffOptions['mode']>
  if (request.args) options.args = request.args as NonNullable<DiffOptions['args']>
  const ignore = (request.ignore ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
  if (ignore.length > 0) options.ignore = ignore
  return options
}

/** The report's data: its runs as they were when it was written; other diffs computed here by the same diffTraces. */
export function embeddedSource(data: ReportData): Source {
  const summaryOf = (id: string | undefined, what: string) => {
    const summary = data.runs.runs.find((run) => run.id === id)
    if (summary === undefined || data.traces[summary.id] === undefined)
      throw new Error(`there is no trace ${JSON.stringify(id ?? '')} in this report (${what})`)
    return summary
  }
  return {
    kind: 'report',
    generatedAt: data.generated_at,
    hasComparison: data.comparison !== undefined,
    async comparison() {
      if (data.comparison === undefined)
        throw new Error('this report compares nothing: write it with --results <current results> --baseline <baseline results>')
      return data.comparison
    },
    runs: async () => data.runs,
    async run(id) {
      const summary = summaryOf(id, 'run')
      const spend = data.spends?.[summary.id]
      return { summary, trace: data.traces[summary.id]!, stack_trace: data.stack_traces[summary.id] ?? null, ...(spend === undefined ? {} : { spend }) }
    },
    async diff(request) {
      const actual = summaryOf(request.actual, 'actual')
      const options = diffOptions(request)
      const side = (summary: typeof actual) => ({ id: summary.id, kind: summary.kind, name: summary.name, trace: data.traces[summary.id]! })
      if (request.expected) {
        const expected = summaryOf(request.expected, 'expected')
        return {
          expected: side(expected),
          actual: side(actual),
          diff: diffTraces(data.traces[expected.id]!, data.traces[actual.id]!, options),
          approve_command: null,
        }
      }
      const goldenId = actual.golden?.id
      if (goldenId === undefined || goldenId === null) throw new Error(`"${actual.name}" has no golden baseline in this report`)
      const golden = summaryOf(goldenId, 'golden')
      const precomputed = Object.keys(options).length === 0 ? data.golden_diffs[actual.id] : undefined
      const diff = precomputed ?? diffTraces(data.traces[golden.id]!, data.traces[actual.id]!, options)
      return { expected: side(golden), actual: side(actual), diff, approve_command: data.approve_commands[actual.id] ?? null }
    },
    subscribe: () => () => {},
  }
}
