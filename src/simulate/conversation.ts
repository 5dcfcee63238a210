/**
 * `conversation(name, { user, maxTurns, ...sessionOptions }, agent)`: a
 * simulated user talks with the agent, exchange by exchange, inside a
 * session (so replay, faults, limits, repeat, goldens and the ledger apply
 * as to any run). The agent's calls are the session's turns; the user's
 * model calls go to its own child session `<name> > user`; the transcript
 * (who said what, with the turns each reply produced) is kept on the trace
 * as `conversation`, from the first message on, so a run that fails or is
 * cut short still shows what was said.
 */
import { describeReceived } from '../assert/received.js'
import { isReplayMissError, ReplayMissError, SimulatedUserError } from '../errors/index.js'
import { checkOptions, type SessionOptions } from '../run/options.js'
import { session, type ClosedSession, type Session } from '../run/session.js'
import type { ConversationEnd, ConversationRecord } from '../trace/types.js'
import { replyText } from './agent-reply.js'
import { openHelperSession, type HelperSession } from './helper-session.js'
import { isSimulatedUser, type NextUserStep, type SimulatedUser, type StopVerdict } from './simulated-user.js'
import type { Transcript, TranscriptMessage } from './transcript.js'

/** The agent under test: given the user's message and the conversation so far (with that message), its reply. */
export type ConversationAgent = (message: string, transcript: Transcript, context: { exchange: number; session: Session }) => unknown

/** The conversation's own options. */
export interface ConversationSettings {
  /** Who talks to the agent: `simulatedUser({ goal, model })`. */
  user: SimulatedUser
  /**
   * The most exchanges (a user message and the agent's reply). After the
   * last one the user is asked once more whether it is done; if not, the
   * conversation ends as `max_turns`. Default: 10.
   */
  maxTurns?: number
}

export type ConversationOptions = ConversationSettings & SessionOptions

/** How a conversation went: `conv.output` of `conversation(name, ...)`. */
export interface ConversationResult {
  endedBy: ConversationEnd
  /** What the user said of its goal when it ended the conversation (or `stop` did); null when unsaid. */
  goalMet: boolean | null
  reason: string | null
  /** Exchanges begun (a user message, with the agent's reply when it gave one). */
  exchanges: number
  transcript: Transcript
}

const DEFAULT_MAX_TURNS = 10
const OWN_OPTIONS = ['user', 'maxTurns'] as const

function checkSettings(fn: string, options: unknown): { user: SimulatedUser; maxTurns: number } {
  const { user, maxTurns = DEFAULT_MAX_TURNS } = (options ?? {}) as Partial<ConversationSettings>
  if (!isSimulatedUser(user))
    throw new TypeError(`${fn}: options.user must be a simulated user: { user: simulatedUser({ goal, model }) }, got ${describeReceived(user)}.`)
  if (typeof maxTurns !== 'number' || !Number.isInteger(maxTurns) || maxTurns < 1)
    throw new TypeError(`${fn}: options.maxTurns must be a whole number of at least 1 (the most exchanges), got ${describeReceived(maxTurns)}.`)
  return { user, maxTurns }
}

/** `stop`'s answer as an end, or undefined to go on. */
function stopEnd(verdict: StopVerdict): { reason: string; goalMet: boolean | null } | undefined {
  if (verdict === undefined || verdict === null || verdict === false) return undefined
  if (verdict === true) return { reason: 'the stop condition was met', goalMet: null }
  if (typeof verdict === 'string') return { reason: verdict, goalMet: null }
  return { reason: verdict.reason, goalMet: verdict.goalMet ?? null }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** A replay miss of a call made for `exchange`, told as the conversation's: the same error with the exchange named first. */
function missInExchange(miss: ReplayMissError, name: string, exchange: number, whose: string): ReplayMissError {
  return new ReplayMissError(`conversation "${name}", exchange ${exchange}, ${whose}: ${miss.message}`, {
    sessionName: miss.sessionName,
    endpoint: miss.endpoint,
    step: miss.step,
    recordingPath: miss.recordingPath,
    exchange,
  })
}

/** The replay miss in `error` (an SDK may wrap what its fetch threw), if there is one. */
function replayMissIn(error: unknown): ReplayMissError | undefined {
  if (isReplayMissError(error)) return error
  const cause = error instanceof Error ? error.cause : undefined
  return isReplayMissError(cause) ? cause : undefined
}

/** One conversation in one open session. */
class Exchanges {
  readonly #session: Session
  readonly #user: SimulatedUser
  readonly #maxTurns: number
  readonly #agent: ConversationAgent
  readonly #transcript: TranscriptMessage[] = []
  readonly #record: ConversationRecord
  #helper: HelperSession | undefined
  /** The last exchange whose user message the user's model gave (not the opening, not a script). */
  #lastAsked = 0

  constructor(s: Session, user: SimulatedUser, maxTurns: number, agent: ConversationAgent) {
    this.#session = s
    this.#user = user
    this.#maxTurns = maxTurns
    this.#agent = agent
    this.#record = {
      goal: user.goal,
      persona: user.persona,
      // What a run cut short (a timeout, a signal) keeps: it never reached an end of its own.
      ended_by: 'error',
      goal_met: null,
      reason: 'the conversation had not ended when its session closed',
      max_turns: maxTurns,
      exchanges: 0,
      user_trace_id: null,
      messages: [],
    }
  }

  async run(): Promise<ConversationResult> {
    const s = this.#session
    s.trace.conversation = this.#record
    if (this.#user.asksModel) {
      this.#helper = openHelperSession(
        s,
        'user',
        { goal: this.#user.goal, model: this.#user.model, ...(this.#user.name === null ? {} : { persona_name: this.#user.name }) },
        'failed',
      )
      this.#record.user_trace_id = this.#helper?.session.traceId ?? null
    }
    try {
      const end = await this.#talk()
      this.#end(end.by, end.reason, end.goalMet)
      await this.#helper?.close()
    } catch (error) {
      this.#end('error', messageOf(error), null)
      await this.#helper?.close(error)
      throw error
    }
    return {
      endedBy: this.#record.ended_by,
      goalMet: this.#record.goal_met,
      reason: this.#record.reason,
      exchanges: this.#record.exchanges,
      transcript: [...this.#transcript],
    }
  }

  #end(by: ConversationEnd, reason: string | null, goalMet: boolean | null): void {
    this.#record.ended_by = by
    this.#record.reason = reason
    this.#record.goal_met = goalMet
  }

  async #talk(): Promise<{ by: ConversationEnd; reason: string; goalMet: boolean | null }> {
    for (let exchange = 1; ; exchange++) {
      const step = await this.#userStep(exchange)
      if (step.kind === 'done') return { by: 'user', reason: step.reason, goalMet: step.goalMet }
      // The user would go on, but the agent has had its maxTurns replies.
      if (exchange > this.#maxTurns) return { by: 'max_turns', reason: `reached maxTurns (${this.#maxTurns}) before the user was done`, goalMet: null }
      this.#say({ role: 'user', content: step.content, exchange })
      this.#record.exchanges = exchange
      await this.#reply(step.content, exchange)
      const stop = this.#user.stop === undefined ? undefined : stopEnd(this.#user.stop(this.#transcript))
      if (stop !== undefined) return { by: 'stop', ...stop }
    }
  }

  #say(message: TranscriptMessage, turns?: number[]): void {
    this.#transcript.push(message)
    this.#record.messages.push(turns === undefined ? { ...message } : { ...message, turns })
  }

  async #userStep(exchange: number): Promise<NextUserStep> {
    const { opening } = this.#user
    if (exchange === 1 && opening !== null) return { kind: 'message', content: opening }
    const name = this.#session.name
    try {
      const transcript: Transcript = [...this.#transcript]
      const step =
        this.#helper === undefined ? await this.#user.next(transcript, exchange) : await this.#helper.run(() => this.#user.next(transcript, exchange))
      if (this.#user.asksModel) this.#lastAsked = exchange
      return step
    } catch (error) {
      const miss = replayMissIn(error)
      if (miss !== undefined) throw missInExchange(miss, name, exchange, `the simulated user's message (${this.#changed(exchange)})`)
      throw new SimulatedUserError(
        `conversation "${name}", exchange ${exchange}: the simulated user could not give its message: ${messageOf(error)}. ` +
          `The conversation so far is on its trace (conversation); ${this.#user.asksModel ? "the user's model calls are in its own run" : 'fix the script'}.`,
        { sessionName: name, exchange, cause: error },
      )
    }
  }

  /** What must have changed for the user's model call of `exchange` to miss: the reply before it, when the call before matched. */
  #changed(exchange: number): string {
    const previous = exchange - 1
    if (this.#lastAsked === previous && previous >= 1) return `the agent's reply in exchange ${previous} is not the one recorded`
    return previous >= 1
      ? `the agent's reply in exchange ${previous}, or the user's goal, persona or prompt, is not the one recorded`
      : "the user's goal, persona or prompt is not the one recorded"
  }

  async #reply(message: string, exchange: number): Promise<void> {
    const s = this.#session
    const before = s.trace.turns.length
    let value: unknown
    try {
      value = await this.#agent(message, [...this.#transcript], { exchange, session: s })
    } catch (error) {
      const miss = replayMissIn(error)
      throw miss === undefined ? error : missInExchange(miss, s.name, exchange, "the agent's reply")
    }
    const text = replyText(value, s.name, exchange)
    const turns = s.trace.turns.slice(before).map((turn) => turn.index)
    this.#say({ role: 'assistant', content: text, exchange }, turns)
  }
}

/**
 * Runs a conversation between a simulated user and the agent in a session
 * of its own, and resolves to the agent's closed session: its trace holds
 * the agent's turns and the `conversation`, `output` how it ended. Rejects
 * as `session()` does when the agent throws, with a `SimulatedUserError`
 * when the user cannot go on, with a `ReplayMissError` naming the exchange
 * when a replayed call has no recorded answer.
 *
 * @example
 * const conv = await conversation('support', { user, maxTurns: 8, replay: 'auto' }, (message, transcript) => supportAgent(transcript))
 * expect(conv.output.endedBy).toBe('user')
 */
export function conversation(name: string, options: ConversationOptions, agent: ConversationAgent): Promise<ClosedSession<ConversationResult>>
/** Runs a conversation in a session that is already open (the `agentSession` fixture, a run of `repeat()`), and resolves to how it went. */
export function conversation(session: Session, options: ConversationSettings, agent: ConversationAgent): Promise<ConversationResult>
export async function conversation(
  target: string | Session,
  options: ConversationOptions,
  agent: ConversationAgent,
): Promise<ClosedSession<ConversationResult> | ConversationResult> {
  const fn = `conversation(${typeof target === 'string' ? JSON.stringify(target) : 'session'}, ...)`
  if (typeof agent !== 'function') throw new TypeError(`${fn} needs the agent, a function (message, transcript) => reply, as its last argument.`)
  if (typeof target === 'string') {
    const given = checkOptions(options, { caller: 'conversation()', ownOptions: OWN_OPTIONS }) as ConversationOptions
    const { user, maxTurns } = checkSettings(fn, given)
    const { user: _user, maxTurns: _maxTurns, ...sessionOptions } = given
    return session(target, sessionOptions, (s) => new Exchanges(s, user, maxTurns, agent).run())
  }
  if (target === null || typeof target !== 'object' || typeof (target as Partial<Session>).logLlmCall !== 'function')
    throw new TypeError(`conversation() needs a session name or an open Session first, got ${describeReceived(target)}.`)
  if (target.closed) throw new TypeError(`conversation(): the session "${target.name}" is closed; run the conversation while it is open.`)
  for (const key of Object.keys(options ?? {})) {
    if (!(OWN_OPTIONS as readonly string[]).includes(key))
      throw new TypeError(`conversation(session, ...): "${key}" is an option of a session; this session is already open. Options here: user, maxTurns.`)
  }
  if (target.trace.conversation !== undefined)
    throw new TypeError(`conversation(): the session "${target.name}" already holds a conversation; a session records one.`)
  const { user, maxTurns } = checkSettings(fn, options)
  return new Exchanges(target, user, maxTurns, agent).run()
}
