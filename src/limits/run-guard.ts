/**
 * The runaway guard of a run (the `limits` session option): it counts what
 * the run's model calls used, as they are recorded, and answers, when a
 * model or tool call is about to start, whether the run has gone past a
 * limit. Counting what the recorder records covers live, scripted and
 * replayed calls alike (a replayed call records its original usage).
 *
 * A session opened inside a guarded one shares its guard (unless it has
 * limits of its own): a sub-agent's calls count toward the run's limits.
 */
import { BudgetExceededError, type LimitName, type StoppedCall } from '../errors/budget-exceeded-error.js'
import { exceedsLimit, priceCall, type ModelCost } from '../trace/cost.js'
import { defaultPriceTable } from '../storage/index.js'
import { readTokens } from '../trace/tokens.js'
import type { LlmCall } from '../trace/types.js'
import { warn } from '../warnings/warnings.js'
import { budgetWords } from './limit-wording.js'
import type { Limits } from './limits-option.js'

interface Passed {
  limit: LimitName
  max: number
  actual: number
}

export class RunGuard {
  readonly #limits: Limits
  readonly #startedAt = performance.now()
  readonly #prices: ReadonlyMap<string, ModelCost> | undefined
  /** Why calls could not be counted, per limit, each warned about once. */
  readonly #unpriced = new Set<string>()
  #modelCalls = 0
  #tokens = 0
  #usd = 0
  #stoppedBy: BudgetExceededError | undefined

  constructor(limits: Limits) {
    this.#limits = limits
    // Read once: a price file that cannot be read is an error at the session's start, not at its tenth call.
    this.#prices = limits.usd === undefined ? undefined : defaultPriceTable()
  }

  /** The first stop, once the run has been stopped: the session is recorded as cancelled with its reason. */
  get stoppedBy(): BudgetExceededError | undefined {
    return this.#stoppedBy
  }

  /** A model call is about to be made: the error to throw instead, or undefined (and the call is counted). */
  stopBeforeModelCall(sessionName: string): BudgetExceededError | undefined {
    const passed = this.#passed(this.#modelCalls + 1)
    if (passed !== undefined) return this.#stop(sessionName, passed, { kind: 'model' })
    this.#modelCalls += 1
    return undefined
  }

  /**
   * A model call the agent made itself has just been logged (logLlmCall):
   * counted, since it happened, and the error to throw when the run had
   * gone past a limit before it (or this call is one turn too many).
   */
  stopAfterLoggedModelCall(sessionName: string): BudgetExceededError | undefined {
    this.#modelCalls += 1
    const passed = this.#passed(this.#modelCalls)
    return passed === undefined ? undefined : this.#stop(sessionName, passed, { kind: 'logged-model' })
  }

  /** A tool is about to run: the error to throw instead, or undefined. */
  stopBeforeToolCall(sessionName: string, tool: string): BudgetExceededError | undefined {
    const passed = this.#passed(this.#modelCalls)
    return passed === undefined ? undefined : this.#stop(sessionName, passed, { kind: 'tool', tool })
  }

  /** Adds what a recorded model call used; called for every call the run records. */
  count(call: LlmCall, sessionName: string): void {
    const usage = call.token_usage
    if (usage != null) {
      const { input, output } = readTokens(usage)
      this.#tokens += input + output
    } else if (this.#limits.tokens !== undefined) {
      this.#warnOnce(sessionName, 'tokens', 'no token_usage')
    }
    if (this.#prices === undefined) return
    const priced = priceCall(call, this.#prices)
    if ('usd' in priced) this.#usd += priced.usd
    else this.#warnOnce(sessionName, 'usd', priced.skipped)
  }

  /** The first limit the run has gone past, with `modelCalls` as its number of model calls. */
  #passed(modelCalls: number): Passed | undefined {
    const { turns, tokens, usd, seconds } = this.#limits
    if (turns !== undefined && modelCalls > turns) return { limit: 'turns', max: turns, actual: modelCalls }
    if (tokens !== undefined && this.#tokens > tokens) return { limit: 'tokens', max: tokens, actual: this.#tokens }
    if (usd !== undefined && exceedsLimit(this.#usd, usd)) return { limit: 'usd', max: usd, actual: this.#usd }
    if (seconds !== undefined) {
      const elapsed = (performance.now() - this.#startedAt) / 1000
      if (elapsed > seconds) return { limit: 'seconds', max: seconds, actual: elapsed }
    }
    return undefined
  }

  #stop(sessionName: string, { limit, max, actual }: Passed, stopped: StoppedCall): BudgetExceededError {
    const { message, reason } = budgetWords(sessionName, limit, max, actual, stopped)
    const error = new BudgetExceededError(message, { sessionName, limit, max, actual, stopped, reason })
    this.#stoppedBy ??= error
    return error
  }

  /** A call a limit cannot count (`why`: `no token_usage`, `no price for model "x"`): warned about once per reason. */
  #warnOnce(sessionName: string, limit: LimitName, why: string): void {
    const key = `${limit}: ${why}`
    if (this.#unpriced.has(key)) return
    this.#unpriced.add(key)
    const fix =
      limit === 'usd'
        ? 'Add the price with a price file (REAGENT_PRICES), or limit tokens instead'
        : 'Record tokenUsage in logLlmCall, or use an adapter and a model that report usage'
    warn('REAGENT_LIMITS', `session "${sessionName}": limits.${limit} cannot count a model call (${why}), so it counts as 0. ${fix}.`)
  }
}
