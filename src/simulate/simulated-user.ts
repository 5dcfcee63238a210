/**
 * `simulatedUser({ goal, persona, opening, model, stop })`: the other side of
 * a conversation. A model (any client an adapter instruments, or a scripted
 * model) playing a user with a goal, or a script: a function, or the list of
 * messages to say in order. The model is asked by `conversation()` inside
 * the user's own session (`<name> > user`), so its calls are recorded and
 * replayed like the agent's, and never counted as the agent's.
 */
import { describeReceived } from '../assert/received.js'
import { askModel, checkModel, modelLabel } from './ask-model.js'
import type { SimulationModel } from './model-types.js'
import type { Transcript } from './transcript.js'
import { defaultUserPrompt, END_CONVERSATION, userSideMessages, type UserPromptInput } from './user-prompt.js'

/** What a scripted user says next: a message, or that the conversation is over. */
export type UserTurn = string | UserDone

/** The user ends the conversation: why, and whether its goal was met (unsaid: null on the trace). */
export interface UserDone {
  done: true
  reason: string
  goalMet?: boolean
}

/** A fully scripted user: given the conversation so far, what it says next. */
export type ScriptedUser = (transcript: Transcript, context: { exchange: number }) => UserTurn | PromiseLike<UserTurn>

/** What `stop` may answer: end now (`true`, a reason, or the reason and whether the goal was met), or go on (`false`, `undefined`). */
export type StopVerdict = boolean | string | undefined | null | { reason: string; goalMet?: boolean }

export interface SimulatedUserOptions {
  /** What the user wants from the agent. Required with a model; optional for a script. @example 'Get a refund for order 42' */
  goal?: string
  /** Who the user is and how they talk. @example 'A busy parent; terse; gives the order number only when asked' */
  persona?: string
  /** The first message, said as it is (no model call): the conversation starts the same way every time. */
  opening?: string
  /**
   * Who plays the user: a model (`{ client: openai, model: 'gpt-4o-mini' }`, an AI SDK
   * `LanguageModel`, a LangChain chat model, a scripted model), a function
   * `(transcript) => message | { done: true, reason }`, or the messages to say in order.
   */
  model: SimulationModel | ScriptedUser | readonly string[]
  /** Checked after each agent reply: ends the conversation when it says so (status `stop`). */
  stop?: (transcript: Transcript) => StopVerdict
  /** The model's system prompt, instead of `defaultUserPrompt({ goal, persona })`. */
  systemPrompt?: string | ((input: UserPromptInput) => string)
  /** A short name for this user (a red-team persona's), kept on the user's run as `metadata.persona_name`. */
  name?: string
  /** What the agent must do to pass against this user, for a judge (`judge({ rubric: user.rubric, model })`); the user's model never sees it. */
  rubric?: string
}

/** What the user did next, as the conversation takes it. */
export type NextUserStep = { kind: 'message'; content: string } | { kind: 'done'; reason: string; goalMet: boolean | null }

const BRAND = Symbol.for('reagent-flow.simulated-user')

/** A simulated user, made by `simulatedUser()`; hand it to `conversation()`. */
export interface SimulatedUser {
  readonly [BRAND]: true
  readonly goal: string | null
  readonly persona: string | null
  /** The model playing the user (`gpt-4o-mini`), or null for a script. */
  readonly model: string | null
  readonly stop: ((transcript: Transcript) => StopVerdict) | undefined
  /** Whether it asks a model, and so needs a session of its own to record into. */
  readonly asksModel: boolean
  /** What the user says in `exchange` (not the opening: the conversation says that itself). */
  next(transcript: Transcript, exchange: number): Promise<NextUserStep>
  readonly opening: string | null
  readonly name: string | null
  readonly rubric: string | null
}

const OPTION_NAMES = new Set(['goal', 'persona', 'opening', 'model', 'stop', 'systemPrompt', 'name', 'rubric'])
const FN = 'simulatedUser()'

function optionalText(value: unknown, option: string): string | null {
  if (value === undefined) return null
  if (typeof value === 'string' && value.trim() !== '') return value
  throw new TypeError(`${FN}: ${option} must be a non-empty string, got ${describeReceived(value)}.`)
}

/** Reads what a scripted user (or its list) returned. */
function scriptedStep(value: unknown): NextUserStep | undefined {
  if (typeof value === 'string') return value === '' ? undefined : { kind: 'message', content: value }
  if (value !== null && typeof value === 'object' && (value as UserDone).done === true) {
    const { reason, goalMet } = value as UserDone
    if (typeof reason !== 'string' || (goalMet !== undefined && typeof goalMet !== 'boolean')) return undefined
    return { kind: 'done', reason, goalMet: goalMet ?? null }
  }
  return undefined
}

function scriptOf(model: ScriptedUser | readonly string[]): (transcript: Transcript, exchange: number) => Promise<unknown> {
  if (typeof model === 'function') return async (transcript, exchange) => model(transcript, { exchange })
  const lines = [...model]
  return async (_transcript, exchange) => lines[exchange - 1] ?? { done: true, reason: `the script's ${lines.length} messages are all said` }
}

/**
 * A simulated user for `conversation()`.
 *
 * @example
 * const user = simulatedUser({
 *   goal: 'Get a refund for order 42',
 *   persona: 'Polite, but gives the order number only when asked',
 *   model: { client: instrumentOpenAI(new OpenAI()), model: 'gpt-4o-mini' },
 * })
 */
export function simulatedUser(options: SimulatedUserOptions): SimulatedUser {
  if (options === null || typeof options !== 'object') throw new TypeError(`${FN} needs options: { goal, model }, got ${describeReceived(options)}.`)
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.has(key)) throw new TypeError(`${FN}: unknown option "${key}". Options: ${[...OPTION_NAMES].join(', ')}.`)
  }
  const goal = optionalText(options.goal, 'goal')
  const persona = optionalText(options.persona, 'persona')
  const opening = optionalText(options.opening, 'opening')
  const name = optionalText(options.name, 'name')
  const rubric = optionalText(options.rubric, 'rubric')
  const { model, stop, systemPrompt } = options
  if (stop !== undefined && typeof stop !== 'function')
    throw new TypeError(`${FN}: stop must be a function (transcript) => boolean, got ${describeReceived(stop)}.`)
  const base = { [BRAND]: true as const, goal, persona, opening, stop, name, rubric }
  if (typeof model === 'function' || Array.isArray(model)) {
    if (Array.isArray(model) && !model.every((line) => typeof line === 'string' && line !== ''))
      throw new TypeError(`${FN}: a scripted user's messages must be non-empty strings, got ${describeReceived(model)}.`)
    if (systemPrompt !== undefined) throw new TypeError(`${FN}: systemPrompt is for a model; a scripted user (a function or a list of messages) has none.`)
    const script = scriptOf(model as ScriptedUser | readonly string[])
    return {
      ...base,
      model: null,
      asksModel: false,
      async next(transcript, exchange) {
        const value = await script(transcript, exchange)
        const step = scriptedStep(value)
        if (step !== undefined) return step
        throw new TypeError(
          `the scripted user must return its next message (a non-empty string) or { done: true, reason: string, goalMet?: boolean }, got ${describeReceived(value)}`,
        )
      },
    }
  }
  if (goal === null) throw new TypeError(`${FN}: a simulated user played by a model needs a goal: { goal: 'Get a refund for order 42', model }.`)
  const checked = checkModel(FN, model)
  if (systemPrompt !== undefined && typeof systemPrompt !== 'string' && typeof systemPrompt !== 'function')
    throw new TypeError(`${FN}: systemPrompt must be a string or a function ({ goal, persona }) => string, got ${describeReceived(systemPrompt)}.`)
  const system = typeof systemPrompt === 'string' ? systemPrompt : (systemPrompt ?? defaultUserPrompt)({ goal, persona })
  if (typeof system !== 'string' || system === '') throw new TypeError(`${FN}: systemPrompt must give a non-empty string, got ${describeReceived(system)}.`)
  const label = modelLabel(checked)
  return {
    ...base,
    model: label,
    asksModel: true,
    async next(transcript) {
      const answer = await askModel(FN, checked, { system, messages: userSideMessages(transcript), tools: [END_CONVERSATION] })
      const end = answer.toolCalls.find((call) => call.name === END_CONVERSATION.name)
      if (end !== undefined) {
        const { goal_met: goalMet, reason } = end.arguments
        return {
          kind: 'done',
          reason: typeof reason === 'string' && reason !== '' ? reason : 'the user ended the conversation',
          goalMet: typeof goalMet === 'boolean' ? goalMet : null,
        }
      }
      const text = answer.text?.trim() ?? ''
      if (text !== '') return { kind: 'message', content: text }
      throw new TypeError(`the simulated user's model (${label}) returned no message and did not call ${END_CONVERSATION.name}`)
    },
  }
}

/** True for a value `simulatedUser()` made. */
export function isSimulatedUser(value: unknown): value is SimulatedUser {
  return value !== null && typeof value === 'object' && (value as { [BRAND]?: unknown })[BRAND] === true
}
