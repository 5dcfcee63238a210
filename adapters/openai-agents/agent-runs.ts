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
import { currentSession, noteOnTrace, noteOnTurn, openChildSession, type ChildSession, type JsonObject, type Session } from '../../src/adapter-support/index.js'
import { isWithheld } from './model-request.js'
import type { CallRouting } from './recorded-model.js'
import { durationOf, errorText, type SdkSpan } from './sdk-span.js'
import { recordToolResult } from './tool-results.js'
import { field, stringOrNull } from './wire.js'
import { internals } from '../../src/adapter-support/index.js'

export type { SdkSpan } from './sdk-span.js'

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
      this.#spans.set(span.spanId, {
        traceId: span.traceId,
        parentId: span.parentId,
        type,
        owner: child?.session ?? currentSession(),
        ...(child === undefined ? {} : { child }),
      })
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
    if (call !== undefined) from[internals].logResultOf(call.call_id, () => ({ result: { assistant: toAgent } }), durationOf(span))
    this.#handoffs.set(span.traceId, { from, fromAgent: stringOrNull(span.spanData['from_agent']), toAgent, context: call?.arguments ?? {} })
  }

  #lastHandoffCall(s: Session): { call_id: string; arguments: JsonObject } | undefined {
    const tools = this.#handoffTools.get(s)
    const last = s.trace.turns.at(-1)
    if (tools === undefined || last === undefined) return undefined
    return last.llm_call.tool_calls.find((call) => tools.has(call.name))
  }
}
