/**
 * `simulatedTool(name, { description, parameters, answer, resultSchema? })`:
 * a tool an agent can call whose answer comes from a model (given a
 * scenario), a function, or a stateful fake. It is a `traceTool`: each call
 * is recorded as the result of the model's tool call in the agent's trace,
 * the `faults` option can fail it, and a model's answer is asked in the
 * helper session `<name> > tools`, recorded and replayed there, out of the
 * agent's budget.
 */
import { traceTool } from '../adapter-support/trace-tool.js'
import { checkSchema, formatIssues } from '../assert/schema.js'
import { SimulatedToolError } from '../errors/index.js'
import { currentSession } from '../session/context.js'
import type { JsonObject, JsonValue } from '../trace/types.js'
import { answerWithModel } from './tools/model-answer.js'
import { checkToolOptions, type CheckedAnswer, type SimulatedToolContext, type SimulatedToolOptions } from './tools/tool-options.js'
import { ToolRuns, type ToolRun } from './tools/tool-runs.js'
import { runInToolsHelper } from './tools/tools-helper.js'

/** The tool: call it with the arguments (and the framework's context, which carries the call's id), and hand its definition to the agent's model. */
export interface SimulatedTool<Args = JsonObject, Result = JsonValue> {
  (args: Args, context?: unknown): Promise<Result>
  readonly name: string
  readonly description: string
  /** JSON Schema of the arguments. */
  readonly parameters: JsonObject
  /** The definition for OpenAI chat completions' `tools`. */
  readonly openai: { type: 'function'; function: { name: string; description: string; parameters: JsonObject } }
  /** The definition for Anthropic's `tools`. */
  readonly anthropic: { name: string; description: string; input_schema: JsonObject }
}

/**
 * A tool that answers like the real one without calling it.
 *
 * @example
 * const bookFlight = simulatedTool('book_flight', {
 *   description: 'Books a seat on a flight and returns the booking.',
 *   parameters: { type: 'object', properties: { flight: { type: 'string' } }, required: ['flight'] },
 *   answer: { state: { seats: 2 }, answer: ({ flight }, state) => (state.seats-- > 0 ? { booked: flight } : { error: 'sold out' }) },
 * })
 */
export function simulatedTool<Args = JsonObject, Result = JsonValue, State = unknown>(
  name: string,
  options: SimulatedToolOptions<Args, Result, State>,
): SimulatedTool<Args, Result> {
  const answer = checkToolOptions<Args, Result, State>(name, options)
  const { description, parameters, resultSchema } = options
  const runs = new ToolRuns<State>()

  async function run(args: Args): Promise<Result> {
    const session = currentSession()
    const toolRun = runs.of(session)
    const context: SimulatedToolContext = { tool: name, call: ++toolRun.calls }
    if (answer.kind === 'model') {
      const request = { name, description, parameters, resultSchema, model: answer.model, scenario: answer.scenario }
      const ask = () => answerWithModel(request, args, toolRun.answered)
      const result = await (session === undefined ? ask() : runInToolsHelper(session, ask))
      toolRun.answered.push({ args, result })
      return result as Result
    }
    const result = await answerOf(answer, args, toolRun, context)
    if (resultSchema !== undefined) {
      const issues = checkSchema(`simulatedTool("${name}")`, resultSchema, result, 'result')
      if (issues.length > 0) {
        const problem = formatIssues(issues)
        throw new SimulatedToolError(
          name,
          problem,
          `simulatedTool("${name}"): the answer function's result does not fit resultSchema (${problem}). Fix the function, or the schema.`,
        )
      }
    }
    return result
  }

  // An async function, so a call a fault fails is a rejected promise, as every other call's failure is (see traceTool).
  const tool = traceTool(name, async (args: Args, _context?: unknown) => run(args)) as SimulatedTool<Args, Result>
  const definition = { name, description, parameters }
  Object.defineProperties(tool, {
    name: { value: name },
    description: { value: description, enumerable: true },
    parameters: { value: parameters, enumerable: true },
    openai: { value: { type: 'function', function: definition }, enumerable: true },
    anthropic: { value: { name, description, input_schema: parameters }, enumerable: true },
  })
  return tool
}

function answerOf<Args, Result, State>(
  answer: Exclude<CheckedAnswer<Args, Result, State>, { kind: 'model' }>,
  args: Args,
  toolRun: ToolRun<State>,
  context: SimulatedToolContext,
): Result | Promise<Result> {
  if (answer.kind === 'function') return answer.answer(args, context)
  toolRun.state ??= { value: answer.initial() }
  return answer.answer(args, toolRun.state.value, context)
}
