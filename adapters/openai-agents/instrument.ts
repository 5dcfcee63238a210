/**
 * `instrumentOpenAIAgents()`: the public entry of the adapter. The Agents
 * SDK's tracing and its model classes are process-wide, so is this: one call
 * (more change nothing) and every `run()` inside a `session()` is recorded;
 * runs outside sessions behave exactly as before.
 */
import {
  addTraceProcessor,
  getCurrentSpan,
  getGlobalTraceProvider,
  NoopTrace,
  OpenAIChatCompletionsModel,
  OpenAIResponsesModel,
  setTraceProcessors,
  setTracingDisabled,
  type Model,
  type TracingProcessor,
} from '@openai/agents'
import { AgentRuns } from './agent-runs.js'
import { isRecorded, openAIModelIdentity, recordModelCalls } from './recorded-model.js'
import { ReagentTraceProcessor } from './trace-processor.js'

/** Shared by every copy of this adapter in the process: the SDK's tracing is process-wide. */
const STATE = Symbol.for('reagent-flow.openai-agents.runs')
type Holder = { [STATE]?: AgentRuns }

function runs(): AgentRuns {
  const holder = globalThis as Holder
  return (holder[STATE] ??= new AgentRuns(() => getCurrentSpan()))
}

/** True when the SDK would trace nothing: `NODE_ENV=test` (its default there), `OPENAI_AGENTS_DISABLE_TRACING`, `setTracingDisabled(true)`. */
function isTracingDisabled(): boolean {
  // Creating a trace object starts nothing and notifies no processor.
  return getGlobalTraceProvider().createTrace({}) instanceof NoopTrace
}

/**
 * Records every Agents SDK run made inside a `session()`: each model call
 * (through the SDK's `Model`: the OpenAI Responses and Chat Completions
 * models, and any model passed to `instrumentAgentsModel`), each function
 * tool's result or error, a handoff as a child session of the receiving
 * agent (its `handoff_context` the handoff's arguments), guardrail results and
 * MCP servers on the turn. Streamed runs (`run(..., { stream: true })`) too.
 * With `traceIncludeSensitiveData: false`, what the SDK keeps out of its
 * traces (messages, text, arguments, outputs) is not recorded either.
 *
 * The SDK's own trace processors keep running. Where the SDK traces nothing
 * (it turns its tracing off under `NODE_ENV=test`, as vitest sets it), tracing
 * is turned on with this processor as the only one: nothing is exported that
 * was not before.
 *
 * @example
 * instrumentOpenAIAgents()
 * const s = await session('triage', () => run(triageAgent, 'Where is my refund?'))
 * loadChain('triage').get('Billing agent').assertCalled('lookup_invoice')
 */
export function instrumentOpenAIAgents(): void {
  const holder = globalThis as Holder
  const isFirst = holder[STATE] === undefined
  const routing = runs()
  for (const model of [OpenAIResponsesModel.prototype, OpenAIChatCompletionsModel.prototype]) {
    recordModelCalls(model, openAIModelIdentity, routing)
  }
  if (!isFirst) return
  const processor = new ReagentTraceProcessor(routing) as unknown as TracingProcessor
  if (isTracingDisabled()) {
    setTraceProcessors([processor])
    setTracingDisabled(false)
  } else {
    addTraceProcessor(processor)
  }
}

export interface AgentsModelOptions {
  /** Who serves the model, as LLM calls record it (`provider`). Default: null. @example { provider: 'anthropic' } */
  provider?: string
}

/**
 * Records the calls of a `Model` of your own (a scripted model, another
 * provider's): the SDK's OpenAI models are recorded already. Returns the same
 * model; instrumenting it again changes nothing.
 *
 * @example
 * const agent = new Agent({ name: 'Planner', model: instrumentAgentsModel(myModel, { provider: 'local' }) })
 */
export function instrumentAgentsModel<M extends Model>(model: M, options: AgentsModelOptions = {}): M {
  if (model === null || typeof model !== 'object' || typeof (model as { getResponse?: unknown }).getResponse !== 'function') {
    throw new TypeError(
      `instrumentAgentsModel(model) needs a Model of @openai/agents (an object with getResponse and getStreamedResponse), got ${model === null ? 'null' : typeof model}.`,
    )
  }
  if (isRecorded(model)) return model
  const provider = options.provider ?? null
  recordModelCalls(model, () => ({ provider, model: null }), runs())
  return model
}
