/**
 * The OpenTelemetry GenAI semantic conventions: `gen_ai.operation.name` says
 * what a span is (`invoke_agent`, `invoke_workflow`, `chat`, `execute_tool`),
 * messages are the JSON of `gen_ai.input.messages` / `gen_ai.output.messages`
 * (recorded only when the instrumentation captures content).
 */
import { GEN_AI, GENERAL, OPERATION } from '../attributes.js'
import { messagesFromGenAi, outputFromGenAi } from '../content.js'
import { count, jsonOrText, spanError, text, usage, type Dialect, type SpanRole } from './dialect.js'

const LLM_OPERATIONS: ReadonlySet<string> = new Set([OPERATION.chat, OPERATION.generateContent, OPERATION.textCompletion])

export const genAi: Dialect = {
  name: 'genai',
  speaks: (span) => span.attributes.has(GEN_AI.operationName),
  role(span): SpanRole {
    const operation = text(span, GEN_AI.operationName)
    if (operation === OPERATION.invokeAgent) return 'agent'
    if (operation === OPERATION.invokeWorkflow) return 'workflow'
    if (operation === OPERATION.executeTool) return 'tool'
    return operation !== null && LLM_OPERATIONS.has(operation) ? 'llm' : 'other'
  },
  runName: (span) => text(span, GEN_AI.agentName) ?? text(span, GEN_AI.workflowName) ?? span.name.replace(/^invoke_(agent|workflow) /, ''),
  sessionId: (span) => text(span, GEN_AI.conversationId),
  userId: (span) => text(span, GENERAL.userId),
  llm(span) {
    const output = outputFromGenAi(span.attributes.get(GEN_AI.outputMessages))
    const reasons = span.attributes.get(GEN_AI.responseFinishReasons)
    const firstReason = Array.isArray(reasons) && typeof reasons[0] === 'string' ? reasons[0] : null
    return {
      messages: messagesFromGenAi(span.attributes.get(GEN_AI.inputMessages), span.attributes.get(GEN_AI.systemInstructions)),
      responseText: output?.responseText ?? null,
      toolCalls: output?.toolCalls ?? [],
      model: text(span, GEN_AI.responseModel) ?? text(span, GEN_AI.requestModel),
      provider: text(span, GEN_AI.providerName) ?? text(span, GEN_AI.system),
      tokenUsage: usage(count(span, GEN_AI.inputTokens, GEN_AI.promptTokens), count(span, GEN_AI.outputTokens, GEN_AI.completionTokens)),
      stopReason: firstReason ?? output?.finishReason ?? null,
      error: spanError(span),
    }
  },
  tool(span) {
    const error = spanError(span)
    return {
      name: text(span, GEN_AI.toolName) ?? span.name.replace(/^execute_tool /, ''),
      callId: text(span, GEN_AI.toolCallId),
      arguments: jsonOrText(span.attributes.get(GEN_AI.toolCallArguments)),
      result: span.attributes.has(GEN_AI.toolCallResult) ? jsonOrText(span.attributes.get(GEN_AI.toolCallResult)) : null,
      error: error === null ? null : error.message,
    }
  },
}
