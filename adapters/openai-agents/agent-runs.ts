/**
 * Which session each part of an Agents SDK run records into, read from the
 * SDK's spans as they start and end.
 *
 * - The first agent of a run records into the session the run was started
 *   in (the user's `session()`).
 * - A handoff (its span names the agents) opens a child session for the
 *   receiving agent, named after it, with the handoff's arguments (what the
 *   model passed to the handoff tool, the handoff's `inputType`) as its
 *   `handoff_context`; `loadChain` and the handoff assertions read it so.
 * - An agent run as another agent's tool (`agent.asTool()`) gets a child
 *   session too, without a handoff context.
 * - Every other span belongs to the agent span above it: a function span is
 *   a tool result, a guardrail span a note on the turn, an MCP tool listing
 *   a note on the trace.
 *
 * Spans are known by id until their SDK trace ends; a child session still
 * open then (a run that broke off) is closed with it.
 */
import {
  currentSession,
  noteOnTrace,
  noteOnTurn,
  noteOnTurnOfCall,
  openChildSession,
  toolOutputValue,
  type ChildSession,
  type JsonObject,
  type Session,
  type ToolOutcome,
} from '../../src/adapter-support.js'
import { isWithheld } from './model-request.js'
import type { CallRouting } from './recorded-model.js'
import { field, parseObject, stringOrNull } from './wire.js'

/** The parts of an SDK span read here (`Span` of @openai/agents). */
export interface SdkSpan {
  readonly spanId: string
  readonly traceId: string
  readonly parentId: string | null
  readonly spanData: { readonly type: string; readonly [key: string]: unknown }
  readonly error: { message: string; data?: Record<string, unknown> } | null
  readonly startedAt: string | null
  readonly endedAt: string | null
}

interface SpanEntry {
  readonly traceId: string
  readonly parentId: string | null
  readonly type: string
  /** A function span's tool name: an agent started inside it is that tool. */
  readonly name?: string
  /** The session of the agent this span belongs to. */
  readonly owner: Session | undefined
  /** The session opened for this agent span. */
  readonly child?: ChildSession
}

interface PendingHandoff {
  readonly from: Session
  readonly fromAgent: string | null
  readonly toAgent: string
  readonly context: JsonObject
}

/** The agent span of the SDK's current span (a turn span, or the agent span itself) when a model is called. */
export type CurrentSpan = () => { readonly spanId: string } | null | undefined

export class AgentRuns implements CallRouting {
  readonly #spans = new Map<string, SpanEntry>()
  /** Per SDK trace, a handoff whose receiving agent has not started yet. */
  readonly #handoffs = new Map<string, PendingHandoff>()
  readonly #handoffTools = new WeakMap<Session, Set<string>>()
  /** Sessions whose agent's data the SDK withholds (`traceIncludeSensitiveData: false`): their tool outputs are not recorded. */
  readonly #withheld = new WeakSet<Session>()
  readonly #currentSpan: CurrentSpan

  constructor(currentSpan: CurrentSpan) {
    this.#currentSpan = currentSpan
  }

  sessionForModelCall(): Session | undefined {
    const span = this.#currentSpan()
    const owner = span === null || span === undefined ? undefined : this.#ownerOf(span.spanId)
    return owner !== undefined && !owner.closed ? owner : currentSession()
  }

  noteRequest(s: Session, request: unknown): void {
    if (isWithheld(request)) this.#withheld.add(s)
    const handoffs = field(request, 'handoffs')
    if (!Array.isArray(handoffs) || handoffs.length === 0) return
    let names = this.#handoffTools.get(s)
    if (names === undefined) this.#handoffTools.set(s, (names = new Set()))
    for (const handoff of handoffs) {
      const name = field(handoff, 'toolName')
      if (typeof name === 'string') names.add(name)
    }
  }

  spanStarted(span: SdkSpan): void {
    const { type } = span.spanData
    if (type === 'agent') {
      const child = this.#openAgentSession(span)
      this.#spans.set(span.spanId, { traceId: span.traceId, parentId: span.parentId, type, owner: child?.session ?? currentSession(), ...(child === undefined ? {} : { child }) })
      return
    }
    const name = span.spanData['name']
    this.#spans.set(span.spanId, {
      traceId: span.traceId,
      parentId: span.parentId,
      type,
      owner: this.#ownerOf(span.parentId),
      ...(type === 'function' && typeof name === 'string' ? { name } : {}),
    })
  }

  spanEnded(span: SdkSpan): void {
    const entry = this.#spans.get(span.spanId)
    if (entry === undefined) return
    if (entry.child !== undefined) {
      void entry.child.close(span.error === null ? undefined : new Error(errorText(span.error)))
      return
    }
    const s = entry.owner
    if (s === undefined || s.closed) return
    switch (span.spanData.type) {
      case 'function':
        return recordToolResult(s, span, this.#withheld.has(s))
      case 'handoff':
        return this.#recordHandoff(s, span)
      case 'guardrail':
        return noteOnTurn(s, 'guardrails', { name: String(span.spanData['name']), triggered: span.spanData['triggered'] === true })
      case 'mcp_tools': {
        const tools = span.spanData['result']
        return noteOnTrace(s, 'mcp_tools', {
          server: stringOrNull(span.spanData['server']),
          tools: Array.isArray(tools) ? tools.filter((tool): tool is string => typeof tool === 'string') : [],
        })
      }
    }
  }

  /** The SDK trace `traceId` ended: its child sessions still open close with it, and its spans are forgotten. */
  traceEnded(traceId: string): void {
    this.#handoffs.delete(traceId)
    for (const [id, entry] of this.#spans) {
      if (entry.traceId !== traceId) continue
      void entry.child?.close()
      this.#spans.delete(id)
    }
  }

  #openAgentSession(span: SdkSpan): ChildSession | undefined {
    const name = String(span.spanData['name'] ?? 'agent')
    const handoff = this.#handoffs.get(span.traceId)
    if (handoff !== undefined && handoff.toAgent === name && !handoff.from.closed) {
      this.#handoffs.delete(span.traceId)
      const metadata: JsonObject = handoff.fromAgent === null ? {} : { handoff_from: handoff.fromAgent }
      return openChildSession(handoff.from, name, { handoffContext: handoff.context, metadata })
    }
    const tool = this.#enclosingFunction(span.parentId)
    const owner = this.#ownerOf(span.parentId)
    if (tool === undefined || owner === undefined || owner.closed) return undefined
    return openChildSession(owner, name, { handoffContext: null, metadata: { invoked_as_tool: tool } })
  }

  /** The session of the agent span at or above `spanId`. */
  #ownerOf(spanId: string | null): Session | undefined {
    for (let id = spanId, hops = 0; id !== null && hops < 1000; hops++) {
      const entry = this.#spans.get(id)
      if (entry === undefined) return undefined
      if (entry.type === 'agent' || entry.owner !== undefined) return entry.owner
      id = entry.parentId
    }
    return undefined
  }

  /** The tool name of the function span above `spanId`, below the nearest agent span: an agent run as a tool. */
  #enclosingFunction(spanId: string | null): string | undefined {
    for (let id = spanId, hops = 0; id !== null && hops < 1000; hops++) {
      const entry = this.#spans.get(id)
      if (entry === undefined || entry.type === 'agent') return undefined
      if (entry.type === 'function') return entry.name
      id = entry.parentId
    }
    return undefined
  }

  /** The handoff tool's call (the SDK acts on the first one of a response) gets the SDK's transfer message as its result; the receiving agent gets the call's arguments. */
  #recordHandoff(from: Session, span: SdkSpan): void {
    const toAgent = stringOrNull(span.spanData['to_agent'])
    if (toAgent === null) return
    const call = this.#lastHandoffCall(from)
    if (call !== undefined) from.logResultOf(call.call_id, () => ({ result: { assistant: toAgent } }), durationOf(span))
    this.#handoffs.set(span.traceId, { from, fromAgent: stringOrNull(span.spanData['from_agent']), toAgent, context: call?.arguments ?? {} })
  }

  #lastHandoffCall(s: Session): { call_id: string; arguments: JsonObject } | undefined {
    const tools = this.#handoffTools.get(s)
    const last = s.trace.turns.at(-1)
    if (tools === undefined || last === undefined) return undefined
    return last.llm_call.tool_calls.find((call) => tools.has(call.name))
  }
}

/**
 * A function span: the tool's result (its output, as the model got it) or
 * error, for the call it answers (found by tool name and arguments among the
 * session's calls waiting for a result), timed by the span.
 */
function recordToolResult(s: Session, span: SdkSpan, isWithheld: boolean): void {
  const name = String(span.spanData['name'] ?? 'unknown')
  const input = span.spanData['input']
  const callId = s.claimPendingCall(name, typeof input === 'string' && input !== '' ? input : undefined)
  const outcome: ToolOutcome =
    span.error !== null ? { error: toolError(span.error) } : { result: isWithheld ? null : outputValue(span.spanData['output']) }
  const durationMs = durationOf(span)
  if (callId === undefined) s.logToolResult(name, { ...outcome, ...(durationMs === undefined ? {} : { durationMs }) })
  else s.logResultOf(callId, () => outcome, durationMs)
  const server = mcpServerOf(span.spanData['mcp_data'])
  if (server !== undefined && callId !== undefined) noteOnTurnOfCall(s, callId, 'mcp_calls', { name, server })
}

/** A tool's output as the model got it, read back as its value; one text part (an MCP tool's content) is its text. */
function outputValue(output: unknown): unknown {
  const value = toolOutputValue(output ?? null)
  return field(value, 'type') === 'text' && typeof field(value, 'text') === 'string' ? toolOutputValue(field(value, 'text')) : value
}

/** The SDK sets `mcp_data` to `{ server }` (typed as a JSON string in its declarations). */
function mcpServerOf(data: unknown): string | null | undefined {
  if (data === undefined || data === null) return undefined
  return stringOrNull(field(typeof data === 'string' ? parseObject(data) : data, 'server'))
}

function toolError(error: NonNullable<SdkSpan['error']>): string {
  const detail = field(error.data, 'error')
  return typeof detail === 'string' && detail !== '' ? detail : error.message
}

function errorText(error: NonNullable<SdkSpan['error']>): string {
  const data = error.data === undefined ? '' : ` (${JSON.stringify(error.data)})`
  return `${error.message}${data}`
}

/** Milliseconds between the span's ISO start and end. */
function durationOf(span: SdkSpan): number | undefined {
  if (span.startedAt === null || span.endedAt === null) return undefined
  const ms = Date.parse(span.endedAt) - Date.parse(span.startedAt)
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined
}
