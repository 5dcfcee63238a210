/**
 * A simulated tool's call answered by a model: shown the tool (name,
 * description, parameters), the scenario, its earlier answers in the session
 * (so call 5 agrees with call 2) and the call's arguments; it answers by
 * calling `return_result` (with a result schema) or with JSON text. An
 * answer that breaks the schema (or is not JSON) is sent back once with what
 * was wrong; a second miss fails the call with a SimulatedToolError.
 */
import { checkSchema, formatIssues } from '../../assert/schema.js'
import { SimulatedToolError } from '../../errors/index.js'
import type { JsonObject, JsonValue } from '../../trace/types.js'
import { askModel } from '../ask-model.js'
import type { ChatMessage, ModelAnswer, ModelTool, SimulationModel } from '../model-types.js'

/** The tool a model with a result schema answers through. */
const RESULT_TOOL = 'return_result'

interface ToolAnswerRequest {
  name: string
  description: string
  parameters: JsonObject
  resultSchema: JsonObject | undefined
  model: SimulationModel
  scenario: string
}

/** One call answered earlier in the session: its arguments and result. */
export interface AnsweredCall {
  args: unknown
  result: unknown
}

/**
 * The system prompt of a simulated tool's model (shown in docs/simulation.md).
 */
function toolSystemPrompt({ name, description, parameters, resultSchema, scenario }: ToolAnswerRequest): string {
  return [
    `You simulate the tool "${name}" in a test of an AI agent. You are not the agent and you talk to no one: each message is a call of the tool, and you answer it with the result the real tool would return.`,
    `The tool: ${description}`,
    `Its arguments (JSON Schema): ${JSON.stringify(parameters)}`,
    `The scenario (what is true in the world the tool sees):\n${scenario}`,
    'Stay consistent with the results you gave to earlier calls.',
    resultSchema === undefined ? 'Answer with the result as JSON only: no prose, no code fence.' : `Answer by calling ${RESULT_TOOL} with the result.`,
  ].join('\n\n')
}

function callMessage(name: string, args: unknown): string {
  return `${name}(${JSON.stringify(args) ?? 'undefined'})`
}

/** The result tool's parameters: the result schema when it is an object schema, else `{ result }` around it (tools take objects). */
function resultTool(resultSchema: JsonObject): { tool: ModelTool; wrapped: boolean } {
  const wrapped = resultSchema.type !== 'object'
  const parameters: JsonObject = wrapped ? { type: 'object', properties: { result: resultSchema }, required: ['result'] } : resultSchema
  return { tool: { name: RESULT_TOOL, description: 'Returns the result of the tool call.', parameters }, wrapped }
}

type Reading = { ok: true; result: JsonValue } | { ok: false; problem: string; said: string }

/** Strips the Markdown fence a model may put around JSON despite being told not to. */
function unfenced(text: string): string {
  const fenced = /^```[a-zA-Z]*\n([\s\S]*?)\n?```$/.exec(text.trim())
  return fenced?.[1] ?? text.trim()
}

function readJsonText(answer: ModelAnswer): Reading {
  const text = answer.text ?? ''
  if (text.trim() === '') return { ok: false, problem: 'the answer was empty', said: '' }
  try {
    return { ok: true, result: JSON.parse(unfenced(text)) as JsonValue }
  } catch {
    return { ok: false, problem: 'the answer was not JSON', said: text }
  }
}

function readResultCall(answer: ModelAnswer, wrapped: boolean): Reading {
  const call = answer.toolCalls.find((candidate) => candidate.name === RESULT_TOOL)
  if (call === undefined) return { ok: false, problem: `${RESULT_TOOL} was not called`, said: answer.text ?? '' }
  const said = `${RESULT_TOOL}(${call.rawArguments ?? JSON.stringify(call.arguments)})`
  if (call.rawArguments !== undefined) return { ok: false, problem: `the arguments of ${RESULT_TOOL} were not a JSON object`, said }
  return { ok: true, result: wrapped ? (call.arguments.result ?? null) : call.arguments }
}

/** The answer's result, checked against the result schema. */
function read(request: ToolAnswerRequest, answer: ModelAnswer): Reading {
  if (request.resultSchema === undefined) return readJsonText(answer)
  const reading = readResultCall(answer, resultTool(request.resultSchema).wrapped)
  if (!reading.ok) return reading
  const issues = checkSchema(`simulatedTool("${request.name}")`, request.resultSchema, reading.result, 'result')
  if (issues.length === 0) return reading
  return { ok: false, problem: formatIssues(issues), said: JSON.stringify(reading.result) }
}

function retryMessage(request: ToolAnswerRequest, problem: string): string {
  const how = request.resultSchema === undefined ? 'with the result as JSON only' : `by calling ${RESULT_TOOL} with a result that fits its schema`
  return `That result is invalid: ${problem}. Answer the same call again, ${how}.`
}

/**
 * Asks the model for the result of calling the tool with `args`, after the
 * calls it answered before in this session. Runs in the current session (the
 * caller's helper session); an SDK's error reaches the caller unchanged.
 */
export async function answerWithModel(request: ToolAnswerRequest, args: unknown, earlier: readonly AnsweredCall[]): Promise<JsonValue> {
  const who = `simulatedTool("${request.name}")`
  const messages: ChatMessage[] = earlier.flatMap(({ args: earlierArgs, result }) => [
    { role: 'user' as const, content: callMessage(request.name, earlierArgs) },
    { role: 'assistant' as const, content: JSON.stringify(result) ?? 'null' },
  ])
  messages.push({ role: 'user', content: callMessage(request.name, args) })
  const tools = request.resultSchema === undefined ? {} : { tools: [resultTool(request.resultSchema).tool], toolChoice: 'required' as const }
  const system = toolSystemPrompt(request)

  const first = read(request, await askModel(who, request.model, { system, messages, ...tools }))
  if (first.ok) return first.result
  const retry: ChatMessage[] = [
    ...messages,
    { role: 'assistant', content: first.said === '' ? '(nothing)' : first.said },
    { role: 'user', content: retryMessage(request, first.problem) },
  ]
  const second = read(request, await askModel(who, request.model, { system, messages: retry, ...tools }))
  if (second.ok) return second.result
  throw new SimulatedToolError(
    request.name,
    second.problem,
    `${who}: the model's answer was invalid twice (first: ${first.problem}; then: ${second.problem}), so the call fails. ` +
      `Make the scenario say what the result holds, loosen resultSchema, or use a model that follows tool schemas better.`,
  )
}
