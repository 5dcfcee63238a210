/**
 * What `simulatedTool(name, options)` takes, and its check: a TypeError at
 * construction naming the tool and the fix, never at the agent's first call.
 */
import { checkSchema } from '../../assert/schema.js'
import type { JsonObject } from '../../trace/types.js'
import { checkModel } from '../ask-model.js'
import type { SimulationModel } from '../model-types.js'

/** What each answer of the tool is given besides the call's arguments. */
export interface SimulatedToolContext {
  /** The tool's name. */
  tool: string
  /** Which call of the tool this is in the current session (1 for the first; outside a session, in the process). */
  call: number
}

/** A model answers each call, given the tool's schema, the call's arguments, the scenario and its earlier answers in the session. */
export interface ModelBackedAnswer {
  model: SimulationModel
  /** What is true in the world the tool sees, e.g. "Flights to Lisbon on 3 May: TP1350 at 09:10 for 129 EUR; nothing after 18:00." */
  scenario: string
}

/** A function answers each call. */
export type FunctionAnswer<Args, Result> = (args: Args, context: SimulatedToolContext) => Result | Promise<Result>

/**
 * A stateful fake: `answer` gets the session's state, the same object on
 * every call of the tool in one session (a booking made in call 2 is there
 * in call 5), fresh in each session: `state` copied (structuredClone), or
 * made by `state()` when it is a function.
 */
export interface StatefulAnswer<Args, Result, State> {
  state: State | (() => State)
  answer: (args: Args, state: State, context: SimulatedToolContext) => Result | Promise<Result>
}

export interface SimulatedToolOptions<Args, Result, State> {
  /** What the tool does, as the agent's model reads it. */
  description: string
  /** JSON Schema of the tool's arguments (an object schema), as the agent's model reads it. */
  parameters: JsonObject
  answer: ModelBackedAnswer | FunctionAnswer<Args, Result> | StatefulAnswer<Args, Result, State>
  /**
   * JSON Schema every result must fit. A model's answer that does not is
   * sent back to it once with what was wrong; a second miss (or a function's
   * result that does not fit) fails the call with a `SimulatedToolError`.
   * With a model and no resultSchema, the model answers any JSON value.
   */
  resultSchema?: JsonObject
}

export type CheckedAnswer<Args, Result, State> =
  | { kind: 'model'; model: SimulationModel; scenario: string }
  | { kind: 'function'; answer: FunctionAnswer<Args, Result> }
  | { kind: 'stateful'; initial: () => State; answer: StatefulAnswer<Args, Result, State>['answer'] }

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function who(name: string): string {
  return `simulatedTool("${name}")`
}

function checkSchemaOption(name: string, key: string, value: unknown, objectOnly: boolean): void {
  const example = `e.g. { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }`
  if (!isObject(value))
    throw new TypeError(
      `${who(name)}: ${key} must be a JSON Schema object, ${example}; got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}.`,
    )
  if (objectOnly && value.type !== 'object')
    throw new TypeError(`${who(name)}: ${key} must be an object schema (type: 'object'), as tools take named arguments, ${example}.`)
  // Compiled once here, so a schema ajv cannot read is an error now, not at the agent's first call.
  checkSchema(who(name), value, undefined, key)
}

/** A copy of `initial` for each session, or what `make()` returns. */
function initialState<State>(name: string, state: State | (() => State)): () => State {
  if (typeof state === 'function') return state as () => State
  try {
    structuredClone(state)
  } catch (error) {
    throw new TypeError(
      `${who(name)}: answer.state must be a value structuredClone can copy (each session gets a fresh copy), or a function that makes it; ${String(error)}. Pass state: () => ({ ... }).`,
    )
  }
  return () => structuredClone(state)
}

function checkAnswer<Args, Result, State>(name: string, answer: unknown): CheckedAnswer<Args, Result, State> {
  if (typeof answer === 'function') return { kind: 'function', answer: answer as FunctionAnswer<Args, Result> }
  if (isObject(answer) && 'model' in answer) {
    if (typeof answer.scenario !== 'string' || answer.scenario.trim() === '') {
      throw new TypeError(`${who(name)}: answer.scenario must say what the tool's world holds, e.g. scenario: 'Order 42 was delivered on 2 May for 19.99 EUR'.`)
    }
    return { kind: 'model', model: checkModel(`${who(name)} answer`, answer.model), scenario: answer.scenario }
  }
  if (isObject(answer) && 'state' in answer && typeof answer.answer === 'function') {
    return {
      kind: 'stateful',
      initial: initialState(name, answer.state as State | (() => State)),
      answer: answer.answer as StatefulAnswer<Args, Result, State>['answer'],
    }
  }
  throw new TypeError(
    `${who(name)}: answer must be { model, scenario } (a model answers), a function (args, context) => result, or { state, answer: (args, state, context) => result } (a stateful fake); got ${answer === null ? 'null' : typeof answer}.`,
  )
}

export function checkToolOptions<Args, Result, State>(name: unknown, options: unknown): CheckedAnswer<Args, Result, State> {
  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new TypeError(
      `simulatedTool(name): name must be 1 to 64 letters, digits, _ or - (what OpenAI and Anthropic accept for a tool), e.g. 'book_flight'; got ${JSON.stringify(name) ?? String(name)}.`,
    )
  }
  if (!isObject(options)) throw new TypeError(`${who(name)}: options must be { description, parameters, answer, resultSchema? }.`)
  if (typeof options.description !== 'string' || options.description.trim() === '') {
    throw new TypeError(`${who(name)}: description must say what the tool does, e.g. 'Books a flight and returns the booking'.`)
  }
  checkSchemaOption(name, 'parameters', options.parameters, true)
  if (options.resultSchema !== undefined) checkSchemaOption(name, 'resultSchema', options.resultSchema, false)
  return checkAnswer(name, options.answer)
}
