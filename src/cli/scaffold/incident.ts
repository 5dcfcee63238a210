/**
 * What a recorded run says a test needs, to play it again: the input the
 * agent got, one scripted model answer per model call, each tool's recorded
 * answers in order, the tool flow, and the tools each call offered (when the
 * trace recorded `tool_sets`). A turn whose answer was not recorded makes
 * the run refused (UnscriptableRunError): a scripted model needs every answer.
 */
import { UnscriptableRunError } from '../../errors/index.js'
import type { JsonValue, LlmCall, Message, ToolResult, Trace } from '../../trace/types.js'

/** A model answer as the scripted models take it (see src/fake/types.ts). */
export interface IncidentStep {
  text?: string
  toolCalls?: Array<{ name: string; arguments: Record<string, JsonValue> }>
  usage?: { inputTokens?: number; outputTokens?: number }
}

/** A tool's recorded answer to one call. */
export type IncidentToolAnswer = { result: JsonValue } | { error: string }

export interface Incident {
  /** The first user message of the first model call. */
  input: string
  steps: IncidentStep[]
  /** Per tool, in the order of its first call: its answers, call by call. */
  tools: Map<string, IncidentToolAnswer[]>
  /** Every tool call's name, in order. */
  flow: string[]
  /** Per model call, the names of the function tools it offered; undefined when the trace did not record them (no `tool_sets`). */
  offered: string[][] | undefined
  /** The providers the model calls named (`openai`, `anthropic`, ...), in order of first use. */
  providers: string[]
}

/** The text of a message's content: a string, or the text parts of a list of parts. */
function textOf(content: JsonValue): string | undefined {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return undefined
  const texts = content.flatMap((part) => {
    if (typeof part === 'string') return [part]
    if (part !== null && typeof part === 'object' && !Array.isArray(part) && typeof part['text'] === 'string') return [part['text']]
    return []
  })
  return texts.length === 0 ? undefined : texts.join('')
}

function inputOf(trace: Trace): string {
  const first = trace.turns[0]?.llm_call
  if (first === undefined) throw new UnscriptableRunError(trace.name, 1, 'is missing: the run made no model call')
  const user = (first.messages ?? []).find((message: Message) => message.role === 'user')
  const text = user === undefined ? undefined : textOf(user.content)
  if (text === undefined) {
    throw new UnscriptableRunError(
      trace.name,
      1,
      first.messages === null
        ? 'recorded no messages (the input the agent got is unknown)'
        : 'sent no user message with text (the input the agent got is unknown)',
    )
  }
  return text
}

function stepOf(call: LlmCall, trace: Trace, turn: number): IncidentStep {
  const hasText = call.response_text !== null && call.response_text !== ''
  if (!hasText && call.tool_calls.length === 0) {
    const why =
      call.error === undefined ? 'recorded neither response text nor tool calls' : `failed (${call.error.name}: ${call.error.message}) and recorded no answer`
    throw new UnscriptableRunError(trace.name, turn, why)
  }
  const step: IncidentStep = {}
  if (hasText) step.text = call.response_text!
  if (call.tool_calls.length > 0) step.toolCalls = call.tool_calls.map((tool) => ({ name: tool.name, arguments: tool.arguments }))
  const usage = call.token_usage
  // The incident's token counts, so budgets and cost read as they did (the scripted models estimate them otherwise).
  if (usage != null && (usage.input_tokens !== undefined || usage.output_tokens !== undefined)) {
    step.usage = {}
    if (usage.input_tokens !== undefined) step.usage.inputTokens = usage.input_tokens
    if (usage.output_tokens !== undefined) step.usage.outputTokens = usage.output_tokens
  }
  return step
}

function answerOf(result: ToolResult | undefined): IncidentToolAnswer {
  if (result === undefined) return { error: 'the incident recorded no result for this call' }
  return result.error !== null ? { error: result.error } : { result: result.result }
}

/** The function tools of each model call's tool set, from the trace's `tool_sets` (recorded since issue 27); undefined without them. */
function offeredOf(trace: Trace): string[][] | undefined {
  const sets = (trace as { tool_sets?: unknown }).tool_sets
  if (sets === null || typeof sets !== 'object') return undefined
  const namesOf = (id: unknown): string[] => {
    const tools = typeof id === 'string' ? (sets as Record<string, unknown>)[id] : undefined
    if (!Array.isArray(tools)) return []
    return tools
      .filter((tool): tool is { name: string; kind?: unknown } => tool !== null && typeof tool === 'object' && typeof tool.name === 'string')
      .filter((tool) => tool.kind === undefined || tool.kind === 'function')
      .map((tool) => tool.name)
      .sort()
  }
  return trace.turns.map((turn) => namesOf((turn.llm_call as { tool_set?: unknown }).tool_set))
}

/** The incident `trace` records; an `UnscriptableRunError` naming the turn when a model answer is missing. */
export function incidentOf(trace: Trace): Incident {
  const input = inputOf(trace)
  const results = new Map<string, ToolResult>()
  for (const turn of trace.turns) for (const result of turn.tool_results) results.set(result.call_id, result)
  for (const orphan of trace.orphan_results ?? []) if (!results.has(orphan.call_id)) results.set(orphan.call_id, orphan)
  const tools = new Map<string, IncidentToolAnswer[]>()
  const flow: string[] = []
  const providers: string[] = []
  const steps = trace.turns.map((turn, i) => {
    const call = turn.llm_call
    if (call.provider !== undefined && !providers.includes(call.provider)) providers.push(call.provider)
    for (const tool of call.tool_calls) {
      flow.push(tool.name)
      const answers = tools.get(tool.name) ?? []
      answers.push(answerOf(results.get(tool.call_id)))
      tools.set(tool.name, answers)
    }
    return stepOf(call, trace, i + 1)
  })
  return { input, steps, tools, flow, offered: offeredOf(trace), providers }
}
