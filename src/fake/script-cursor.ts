/**
 * A script being played: hands out its steps one call at a time, resolves
 * function steps, and turns each answer into a `Reply` every wire format
 * renders the same way. The one place where a scripted model's own errors
 * (a script run out, a step that is not one) are raised.
 */
import { markNotRetryable } from '../http/failing-response.js'
import { ScriptExhaustedError } from './errors.js'
import type { ErrorStep, Script, ScriptAnswer, ScriptProgress, ScriptRequest, ScriptStep } from './types.js'
import { tokenCounts, type TokenCounts } from './usage.js'
import { invalidStepError, stepProblem } from './validate-step.js'

export interface ReplyToolCall {
  id: string
  name: string
  arguments: Record<string, unknown>
  /** The arguments as the JSON text the provider sends. */
  json: string
}

/** What the model answers, ready to be put on the wire. */
export interface Reply {
  text: string | undefined
  toolCalls: ReplyToolCall[]
  usage: TokenCounts
}

export type Resolved = { kind: 'reply'; reply: Reply } | { kind: 'error'; error: ErrorStep['error'] }

export class ScriptCursor implements ScriptProgress {
  readonly #steps: readonly ScriptStep[]
  readonly #model: string
  readonly #requests: ScriptRequest[] = []
  #claimed = 0

  /** @param model names the scripted model in error messages: `scriptedFetch`, `scriptedChatModel "x"`. */
  constructor(script: Script, model: string) {
    if (!Array.isArray(script)) throw new TypeError(`${model}: the script must be an array of steps, got ${script === null ? 'null' : typeof script}.`)
    script.forEach((step, i) => {
      if (typeof step === 'function') return
      const problem = stepProblem(step)
      if (problem !== undefined) throw invalidStepError(model, i + 1, problem, false)
    })
    this.#steps = [...script]
    this.#model = model
  }

  get requests(): readonly ScriptRequest[] {
    return this.#requests.filter((request) => request !== undefined)
  }

  get remaining(): number {
    return Math.max(0, this.#steps.length - this.#claimed)
  }

  /** Takes the next call number at once, so concurrent calls get their steps in the order they were made. */
  claim(): number {
    this.#claimed += 1
    return this.#claimed
  }

  /**
   * The answer to `request` (whose `call` came from `claim()`). `target` says
   * what was called, for the error when the script has run out; `idPrefix`
   * starts the ids of tool calls the step gives none (`call_`, `toolu_`).
   */
  async resolve(request: ScriptRequest, target: string, idPrefix: string): Promise<Resolved> {
    this.#requests[request.call - 1] = request
    const step = this.#steps[request.call - 1]
    if (step === undefined) throw markNotRetryable(new ScriptExhaustedError(this.#model, request, this.#steps.length, target))
    const answer = typeof step === 'function' ? await this.#answerOf(step, request) : step
    if ('error' in answer) return { kind: 'error', error: answer.error }
    return { kind: 'reply', reply: replyOf(answer, request, idPrefix) }
  }

  async #answerOf(step: (request: ScriptRequest) => ScriptAnswer | Promise<ScriptAnswer>, request: ScriptRequest): Promise<ScriptAnswer> {
    let answer: unknown
    try {
      answer = await step(request)
    } catch (error) {
      // The test's own function failed: that error, as it is, is what the caller must see.
      throw markNotRetryable(error)
    }
    const problem = stepProblem(answer)
    if (problem !== undefined) throw markNotRetryable(invalidStepError(this.#model, request.call, problem, true))
    return answer as ScriptAnswer
  }
}

function replyOf(answer: Exclude<ScriptAnswer, ErrorStep>, request: ScriptRequest, idPrefix: string): Reply {
  const toolCalls = (answer.toolCalls ?? []).map((call, i) => {
    const args = call.arguments ?? {}
    return { id: call.id ?? `${idPrefix}${request.call}_${i}`, name: call.name, arguments: args, json: JSON.stringify(args) }
  })
  return { text: answer.text, toolCalls, usage: tokenCounts(request, { text: answer.text, toolCalls }, answer.usage) }
}
