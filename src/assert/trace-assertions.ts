/**
 * Every assertion as a method, over `this.trace`, and the helpers tests read
 * a run with (`toolCalls()`, `toolNames()`, `finalAnswer`).
 *
 * Why a base class: Session extends it, so `s.assertCalled('x')` works on a
 * recorded session while session.ts keeps to recording; and `assertOn(trace)`
 * gives a loaded trace (a golden, a file from the Python reagent-flow) the
 * very same methods. Each method is one line over the pure function of the
 * same name in this folder, so the two forms cannot drift apart.
 */
import { finalResponse } from '../trace/facts.js'
import type { ToolCall, Trace } from '../trace/types.js'
import { toTrace, type TraceSource } from './arguments.js'
import { assertCalled, assertCalledBefore, assertCalledTimes, assertNeverCalled, assertToolSucceeded, type CallCount } from './calls.js'
import { assertCalledWith } from './called-with.js'
import { assertFlow } from './flow.js'
import {
  assertContextPreserved,
  assertHandoffHasFields,
  assertHandoffMatches,
  assertHandoffReceived,
  assertNoExtraFields,
  type AllowedFieldsOptions,
  type PreservedFieldsOptions,
} from './handoff.js'
import { assertMaxTurns, assertTotalDurationUnder, type DurationOptions } from './budgets.js'
import type { SchemaOptions } from './schema.js'
import { toolNames as toolNamesOf } from './tool-calls.js'
import { assertToolOutputMatches } from './tool-output.js'
import { assertEndedWithGoalMet, assertEndedWithinExchanges } from './conversation-end.js'
import { assertEveryReply, type ReplyCheck } from './every-reply.js'
import { assertCalledBeforeExchange, assertNotCalledBeforeExchange } from './exchange-calls.js'
import { assertCostUnder, assertTotalTokensUnder, type CostOptions, type TokenOptions } from './usage.js'

export abstract class TraceAssertions {
  /** The trace the assertions read (for an open session, the live trace so far). */
  abstract readonly trace: Trace

  /**
   * The tool calls the model made, in order over all turns; only those of
   * `toolName` when given.
   * @example expect(s.toolCalls('search').map((call) => call.arguments.q)).toEqual(['refund policy'])
   */
  toolCalls(toolName?: string): ToolCall[] {
    const calls = this.trace.turns.flatMap((turn) => turn.llm_call.tool_calls)
    return toolName === undefined ? calls : calls.filter((call) => call.name === toolName)
  }

  /** The names of the tools the model called, in order (repeats kept). @example expect(s.toolNames()).toContain('issue_refund') */
  toolNames(): string[] {
    return toolNamesOf(this.trace)
  }

  /**
   * The model's last text answer: the `response_text` of the last turn that
   * has one; null when the model never answered in text.
   * @example expect(s.finalAnswer).toMatch(/refunded/i)
   */
  get finalAnswer(): string | null {
    return finalResponse(this.trace)
  }

  /** `tool` was called at least once. @example s.assertCalled('lookup_order') */
  assertCalled(tool: string): void {
    assertCalled(this.trace, tool)
  }

  /** `tool` was never called. @example s.assertNeverCalled('delete_account') */
  assertNeverCalled(tool: string): void {
    assertNeverCalled(this.trace, tool)
  }

  /** The first call of `first` comes before the first call of `second`. @example s.assertCalledBefore('check_policy', 'issue_refund') */
  assertCalledBefore(first: string, second: string): void {
    assertCalledBefore(this.trace, first, second)
  }

  /** Every call of `tool` has a result without an error. @example s.assertToolSucceeded('issue_refund') */
  assertToolSucceeded(tool: string): void {
    assertToolSucceeded(this.trace, tool)
  }

  /** At most `n` turns. @example s.assertMaxTurns(5) */
  assertMaxTurns(n: number): void {
    assertMaxTurns(this.trace, n)
  }

  /** The run took at most `ms` milliseconds. @example s.assertTotalDurationUnder({ ms: 5_000 }) */
  assertTotalDurationUnder(options: DurationOptions): void {
    assertTotalDurationUnder(this.trace, options)
  }

  /** Tool names in order match `pattern`; `'...'` is any run of calls. @example s.assertFlow(['lookup_order', '...', 'issue_refund']) */
  assertFlow(pattern: readonly string[]): void {
    assertFlow(this.trace, pattern)
  }

  /** `tool` was called exactly `times`, or between `min` and `max` times. @example s.assertCalledTimes('search', { max: 3 }) */
  assertCalledTimes(tool: string, times: CallCount): void {
    assertCalledTimes(this.trace, tool, times)
  }

  /** Some call of `tool` had these arguments (and maybe more). @example s.assertCalledWith('issue_refund', { amount: expect.any(Number) }) */
  assertCalledWith(tool: string, partialArgs: Readonly<Record<string, unknown>>): void {
    assertCalledWith(this.trace, tool, partialArgs)
  }

  /** This trace is a child of `parent` (a Session or a Trace). @example child.assertHandoffReceived(planner) */
  assertHandoffReceived(parent: TraceSource): void {
    assertHandoffReceived(this.trace, parent)
  }

  /** `handoff_context` has these fields, not null. @example s.assertHandoffHasFields(['order_id']) */
  assertHandoffHasFields(fields: readonly string[]): void {
    assertHandoffHasFields(this.trace, fields)
  }

  /** `handoff_context` is valid against a JSON Schema or Standard Schema. @example s.assertHandoffMatches({ schema: HandoffSchema }) */
  assertHandoffMatches(options: SchemaOptions): void {
    assertHandoffMatches(this.trace, options)
  }

  /** `handoff_context` has no key outside `allowed`. @example s.assertNoExtraFields({ allowed: ['order_id'] }) */
  assertNoExtraFields(options: AllowedFieldsOptions): void {
    assertNoExtraFields(this.trace, options)
  }

  /** Every successful result of `tool` is valid against `schema`. @example s.assertToolOutputMatches('lookup_order', { schema: Order }) */
  assertToolOutputMatches(tool: string, options: SchemaOptions): void {
    assertToolOutputMatches(this.trace, tool, options)
  }

  /** These fields of `source` reached `handoff_context` unchanged. @example child.assertContextPreserved(plan, { fields: ['order_id'] }) */
  assertContextPreserved(source: Readonly<Record<string, unknown>>, options: PreservedFieldsOptions): void {
    assertContextPreserved(this.trace, source, options)
  }

  /** Input + output tokens of all turns are at most `n`. @example s.assertTotalTokensUnder(4_000) */
  assertTotalTokensUnder(n: number, options?: TokenOptions): void {
    assertTotalTokensUnder(this.trace, n, options)
  }

  /** The estimated cost is at most `usd` (priced by the built-in table unless `modelCosts` is given). @example s.assertCostUnder({ usd: 0.05 }) */
  assertCostUnder(options: CostOptions): void {
    assertCostUnder(this.trace, options)
  }

  /** The conversation ended because the simulated user said its goal was met. @example conv.assertEndedWithGoalMet() */
  assertEndedWithGoalMet(): void {
    assertEndedWithGoalMet(this.trace)
  }

  /** The conversation ended (the user or `stop` ended it) within `n` exchanges. @example conv.assertEndedWithinExchanges(4) */
  assertEndedWithinExchanges(n: number): void {
    assertEndedWithinExchanges(this.trace, n)
  }

  /** Every reply of the agent in the conversation passes `check`. @example conv.assertEveryReply((reply) => !reply.includes('@')) */
  assertEveryReply(check: ReplyCheck): void {
    assertEveryReply(this.trace, check)
  }

  /** `tool` was called while the agent replied in an exchange before exchange `n`. @example conv.assertCalledBeforeExchange('lookup_order', 3) */
  assertCalledBeforeExchange(tool: string, n: number): void {
    assertCalledBeforeExchange(this.trace, tool, n)
  }

  /** `tool` was not called in any exchange before exchange `n`. @example conv.assertNotCalledBeforeExchange('issue_refund', 2) */
  assertNotCalledBeforeExchange(tool: string, n: number): void {
    assertNotCalledBeforeExchange(this.trace, tool, n)
  }
}

class LoadedTrace extends TraceAssertions {
  override readonly trace: Trace

  constructor(trace: Trace) {
    super()
    this.trace = trace
  }
}

/**
 * The assertion methods over any trace, e.g. one read with `loadTrace()`.
 * @example assertOn(loadTrace('.reagent/refund-agent.trace.json')).assertCalled('issue_refund')
 */
export function assertOn(trace: Trace): TraceAssertions {
  return new LoadedTrace(toTrace('assertOn', trace))
}
