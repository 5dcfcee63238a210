/**
 * Spans, grouped into the runs of agents they record: one run per agent (or
 * workflow) span, a run inside another's spans its child; the model calls and
 * tool executions under a run (and not under a run inside it) are its turns,
 * in the order they started. A tool span belongs to the call that asked for
 * it (by call id, else the same tool name in the latest turn); a tool no
 * recorded call asked for (an instrumentation that keeps no content) becomes a
 * call of the latest turn. Model calls with no agent span above them make one
 * run per OpenTelemetry trace, named after its root span.
 */
import { REAGENT } from './attributes.js'
import { ownObject } from './own-attributes.js'
import type { Dialect, LlmDraft, ToolDraft } from './dialects/index.js'
import type { SpanRecord } from './span-record.js'

export interface ToolPlan {
  readonly span: SpanRecord
  readonly draft: ToolDraft
  /** The index of its call in the turn's `llm.toolCalls`; null for a result kept without a call. */
  readonly callIndex: number | null
}

export interface TurnPlan {
  readonly span: SpanRecord
  readonly llm: LlmDraft
  readonly tools: ToolPlan[]
}

export interface RunPlan {
  /** The agent or workflow span; for model calls with no agent above them, the root span of their trace. */
  readonly span: SpanRecord
  readonly name: string
  readonly turns: TurnPlan[]
  /** Tool spans before the run's first model call. */
  readonly orphanTools: Array<{ span: SpanRecord; draft: ToolDraft }>
  readonly children: RunPlan[]
}

/** Start order; spans that start together keep the order they were written in (an export writes a turn's tool spans in order). */
function byStart(a: SpanRecord, b: SpanRecord): number {
  return a.start - b.start
}

/** The runs the spans record, roots first (each with its child runs). */
export function planRuns(spans: readonly SpanRecord[], dialect: Dialect): RunPlan[] {
  const byId = new Map(spans.map((span) => [span.spanId, span]))
  const childrenOf = new Map<string, SpanRecord[]>()
  const roots: SpanRecord[] = []
  for (const span of spans) {
    const parent = span.parentSpanId === null ? undefined : byId.get(span.parentSpanId)
    if (parent === undefined || parent === span) roots.push(span)
    else {
      const siblings = childrenOf.get(parent.spanId)
      if (siblings === undefined) childrenOf.set(parent.spanId, [span])
      else siblings.push(span)
    }
  }
  const runs: RunPlan[] = []
  const events = new Map<RunPlan, SpanRecord[]>()
  const newRun = (span: SpanRecord, name: string, parent: RunPlan | undefined): RunPlan => {
    const run: RunPlan = { span, name, turns: [], orphanTools: [], children: [] }
    ;(parent?.children ?? runs).push(run)
    events.set(run, [])
    return run
  }
  // Iterative, not recursive: a deep span file must not blow the stack. Spans
  // no root reaches (parents that point at each other) are walked from
  // themselves, so a damaged file loses no model call.
  const seen = new Set<string>()
  for (const root of [...roots.sort(byStart), ...[...spans].sort(byStart)]) {
    if (seen.has(root.spanId)) continue
    let anonymous: RunPlan | undefined
    const stack: Array<[SpanRecord, RunPlan | undefined]> = [[root, undefined]]
    while (stack.length > 0) {
      const [span, parentRun] = stack.pop()!
      if (seen.has(span.spanId)) continue
      seen.add(span.spanId)
      const role = dialect.role(span, span === root)
      let run = parentRun
      if (role === 'agent' || role === 'workflow') run = newRun(span, dialect.runName(span), parentRun)
      else if (role === 'llm' || role === 'tool') {
        run ??= anonymous ??= newRun(root, root.name === '' ? 'otel-trace' : root.name, undefined)
        events.get(run)!.push(span)
      }
      const children = [...(childrenOf.get(span.spanId) ?? [])].sort(byStart).reverse()
      for (const child of children) stack.push([child, run])
    }
  }
  for (const [run, spansOfRun] of events) buildTurns(run, spansOfRun.sort(byStart), dialect)
  return runs
}

/**
 * All the model calls and tool executions of `spans` as the turns of one run,
 * whatever agent spans they sit under (a session records one agent: the
 * spans it saw end are its own). Undefined when there are none.
 */
export function planOneRun(spans: readonly SpanRecord[], dialect: Dialect, name: string): RunPlan | undefined {
  const events = spans.filter((span) => {
    const role = dialect.role(span, false)
    return role === 'llm' || role === 'tool'
  })
  if (events.length === 0) return undefined
  const sorted = [...events].sort(byStart)
  const run: RunPlan = { span: sorted[0]!, name, turns: [], orphanTools: [], children: [] }
  buildTurns(run, sorted, dialect)
  return run
}

function buildTurns(run: RunPlan, spans: readonly SpanRecord[], dialect: Dialect): void {
  /** Per turn, the indices of its calls a tool span has answered. */
  const answered = new Map<TurnPlan, Set<number>>()
  for (const span of spans) {
    if (dialect.role(span, false) === 'llm') {
      const turn: TurnPlan = { span, llm: dialect.llm(span), tools: [] }
      run.turns.push(turn)
      answered.set(turn, new Set())
      continue
    }
    const draft = dialect.tool(span)
    // A result reagent-flow exported names its turn; another's goes to the latest turn.
    const own = ownObject(span.attributes.get(REAGENT.toolResult))
    const last = typeof own?.['turn'] === 'number' ? (run.turns[own['turn']] ?? run.turns.at(-1)) : run.turns.at(-1)
    if (last === undefined) {
      run.orphanTools.push({ span, draft })
      continue
    }
    if (own?.['unmatched'] === true) {
      last.tools.push({ span, draft, callIndex: null })
      continue
    }
    const [turn, callIndex] = callFor(own === undefined ? run.turns : [last], answered, draft) ?? [last, addCall(last, draft)]
    answered.get(turn)!.add(callIndex)
    turn.tools.push({ span, draft, callIndex })
  }
}

/** The turn and call a tool execution answers: the call with its id, else the oldest unanswered call of its name in the latest turn. */
function callFor(turns: readonly TurnPlan[], answered: Map<TurnPlan, Set<number>>, draft: ToolDraft): [TurnPlan, number] | undefined {
  if (draft.callId !== null) {
    for (let t = turns.length - 1; t >= 0; t--) {
      const index = turns[t]!.llm.toolCalls.findIndex((call) => call.callId === draft.callId)
      if (index !== -1) return [turns[t]!, index]
    }
  }
  const last = turns.at(-1)!
  const taken = answered.get(last)!
  const index = last.llm.toolCalls.findIndex((call, i) => call.name === draft.name && !taken.has(i) && (draft.callId === null || call.callId === undefined))
  return index === -1 ? undefined : [last, index]
}

function addCall(turn: TurnPlan, draft: ToolDraft): number {
  turn.llm.toolCalls.push({
    name: draft.name,
    ...(draft.arguments === undefined ? {} : { arguments: draft.arguments }),
    ...(draft.callId === null ? {} : { callId: draft.callId }),
  })
  return turn.llm.toolCalls.length - 1
}
