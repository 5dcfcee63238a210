/**
 * The attribute names reagent-flow writes and reads, in one table: the
 * OpenTelemetry GenAI semantic conventions (as `@opentelemetry/semantic-
 * conventions/incubating` names them; test/otel checks every name against
 * that package, so none is typed from memory), and reagent-flow's own
 * `reagent_flow.*` attributes, which carry what the conventions have no place
 * for, so that a trace exported and imported again is the same trace.
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  system: 'gen_ai.system',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  workflowName: 'gen_ai.workflow.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  promptTokens: 'gen_ai.usage.prompt_tokens',
  completionTokens: 'gen_ai.usage.completion_tokens',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  /** The indexed prompt and completion attributes of older instrumentations (OpenLLMetry): `gen_ai.prompt.0.content`. */
  prompt: 'gen_ai.prompt',
  completion: 'gen_ai.completion',
} as const

/** Values of `gen_ai.operation.name`. */
export const OPERATION = {
  chat: 'chat',
  generateContent: 'generate_content',
  textCompletion: 'text_completion',
  executeTool: 'execute_tool',
  invokeAgent: 'invoke_agent',
  invokeWorkflow: 'invoke_workflow',
} as const

/** General conventions used beside GenAI's. */
export const GENERAL = {
  errorType: 'error.type',
  userId: 'user.id',
  sessionId: 'session.id',
  serviceName: 'service.name',
} as const

/**
 * reagent-flow's own attributes, each a JSON text: the trace's top-level
 * fields (on the run's span), a turn's extra keys and duration (on its chat
 * span), an LLM call's full token usage, error, latency and extra keys, and a
 * tool result's turn (and whether it was kept without a call, on its tool
 * span): span times alone cannot say which turn a result belongs to when a
 * recorded latency overlaps the next call.
 */
export const REAGENT = {
  trace: 'reagent_flow.trace',
  turn: 'reagent_flow.turn',
  llmCall: 'reagent_flow.llm_call',
  toolResult: 'reagent_flow.tool_result',
} as const
