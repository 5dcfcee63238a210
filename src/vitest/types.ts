/**
 * The matchers' types, added to vitest's `expect(...)` by declaration
 * merging (vitest's documented way: `declare module 'vitest'`, interface
 * `Matchers<T = any>`). Methods rather than properties, so two copies of
 * these declarations in one program (the sources and the built package)
 * merge as overloads instead of clashing.
 *
 * Each takes its arguments only when `expect()` was given a run (`T`, the
 * type of that value, is a Session, a Trace or a chain node): otherwise the
 * first argument must be `NotAnAgentRun`, so `expect(result.messages)` or
 * `expect(session(...))` (the forgotten await) is a type error whose text
 * says what is wrong. `any` passes, as everywhere in vitest.
 */
import type { MatcherState } from 'vitest'
import type { TraceSource } from '../assert/arguments.js'
import type { CallCount } from '../assert/calls.js'
import type { RunSet } from '../repeat/run-set.js'
import type { Session } from '../session/session.js'
import type { GoalJudge, GoalOptions } from '../run/goal.js'
import type { Judge, RuleJudge } from '../run/rubric-judge.js'
import type { TokenOptions } from '../assert/usage.js'
import type { ReplyCheck } from '../assert/every-reply.js'
import type { AnswerExpectation } from './answer-matchers.js'
import type { CostMatcherOptions } from './budget-matchers.js'
import type { GoldenMatcherOptions } from './golden-matcher.js'
import type { ToolContractOptions } from '../run/tool-contract.js'

/** The type a reagent-flow matcher's first argument has when `expect()` was not given a run: no value has it. */
export type NotAnAgentRun = 'expect() was given something that is not a Session, a Trace or a chain node: pass the Session that session() resolves to'

/**
 * The matcher's parameters `P` when `T` is a run, else a first parameter
 * nothing can be passed to. Distributes over unions, so `Session | undefined`
 * passes. `MatcherState` passes too: `expect.extend()` checks the matchers'
 * implementations against `Matchers<MatcherState>`.
 */
export type RunArgs<T, P extends unknown[]> = T extends TraceSource | MatcherState
  ? P
  : [expect_value_must_be_a_Session_Trace_or_chain_node: NotAnAgentRun, ...rest: unknown[]]

/** The type toPassInAtLeast's first argument has when `expect()` was not given a run set: no value has it. */
export type NotARunSet = 'expect() was given something that is not a RunSet: pass what repeat() resolves to'

/** The matcher's parameters `P` when `T` is a run set (`repeat()`), else a first parameter nothing can be passed to. */
// biome-ignore lint/suspicious/noExplicitAny: a run set of any output type; RunSet<unknown> would not accept RunSet<string>, its runs' type being invariant
export type RunSetArgs<T, P extends unknown[]> = T extends RunSet<any> | MatcherState ? P : [expect_value_must_be_a_RunSet: NotARunSet, ...rest: unknown[]]

declare module 'vitest' {
  /** What the vitest config's `test.provide` may give reagent-flow, and `inject('reagentFlow')` reads. */
  interface ProvidedContext {
    /**
     * The record and replay defaults of every session of the project (a
     * session's own option, and REAGENT_REPLAY for the mode, come first).
     * Spelled out rather than named: a second copy of these declarations (the
     * sources and the built package in one program) must declare the same type.
     * @example provide: { reagentFlow: { replay: 'auto', replayTools: true } }
     */
    reagentFlow?: { replay?: 'off' | 'record' | 'replay' | 'auto' | 'prune'; replayTools?: boolean; strict?: boolean }
    /** Set by reagent-flow/vitest/reporter, not by users: the reporter lists the goldens written at the end of the run. */
    reagentFlowReporter?: boolean
  }
  // Declared with the same type parameter as vitest's, or the interfaces would not merge.
  // biome-ignore lint/suspicious/noExplicitAny: vitest declares Matchers<T = any>
  interface Matchers<T = any> {
    /**
     * The agent called `tool` at least once. On a Session or a Trace.
     * @example expect(s).toHaveCalledTool('issue_refund')
     */
    toHaveCalledTool(...args: RunArgs<T, [tool: string]>): void
    /**
     * Some call of `tool` had every key of `partialArgs` with an equal value
     * (other arguments ignored); values may be asymmetric matchers.
     * @example expect(s).toHaveCalledToolWith('issue_refund', { order_id: '42', amount: expect.any(Number) })
     */
    toHaveCalledToolWith(...args: RunArgs<T, [tool: string, partialArgs: Readonly<Record<string, unknown>>]>): void
    /**
     * `tool` was called exactly `times`, or between `min` (default 0) and `max` (default no limit) times.
     * @example expect(s).toHaveCalledToolTimes('search', { max: 3 })
     */
    toHaveCalledToolTimes(...args: RunArgs<T, [tool: string, times: CallCount]>): void
    /**
     * The tool names in call order match `pattern`, anchored at both ends; `'...'` is any run of calls.
     * "Called in this order, anywhere": `['...', 'a', '...', 'b', '...']`.
     * @example expect(s).toMatchFlow(['lookup_order', '...', 'issue_refund'])
     */
    toMatchFlow(...args: RunArgs<T, [pattern: readonly string[]]>): void
    /**
     * The run completed (its function did not throw) and every tool call has a result without an error.
     * @example expect(s).toHaveSucceeded()
     */
    toHaveSucceeded(...args: RunArgs<T, []>): void
    /**
     * The run matches its golden baseline, which belongs to the test file
     * as a snapshot does: `<traceDir>/golden/<test file>/<test name>.trace.json`
     * (outside vitest, `<traceDir>/golden/<name>.trace.json`). A missing
     * golden is written, except under CI; `vitest -u` or `REAGENT_UPDATE=all`
     * rewrites it. Options: the `diffTraces` options, `traceDir`, `redact`.
     * It checks at once (a mismatch fails the test, awaited or not); awaiting it is harmless.
     * @example expect(s).toMatchGolden({ args: { tools: { search: 'ignore' } } })
     */
    toMatchGolden(...args: RunArgs<T, [options?: GoldenMatcherOptions]>): void
    /**
     * The tools the run offered the model match its tool contract, which
     * belongs to the test file as a golden does:
     * `<traceDir>/contracts/<test file>/<test name>.tools.json`. Every change
     * fails (breaking, compatible, wording) unless its class is in `allow`.
     * A missing contract is written, except under CI; `vitest -u` or
     * `REAGENT_UPDATE=all` rewrites it.
     * @example expect(s).toMatchToolContract({ allow: ['compatible'] })
     */
    toMatchToolContract(...args: RunArgs<T, [options?: ToolContractOptions]>): void
    /**
     * The model's last text answer (`s.finalAnswer`) equals `expected` (a
     * string, exactly), matches it (a RegExp), or satisfies it (an asymmetric
     * matcher such as `expect.stringContaining('refund')`).
     * @example expect(s).toHaveFinalAnswer(/refunded \$19\.99/i)
     */
    toHaveFinalAnswer(...args: RunArgs<T, [expected: AnswerExpectation]>): void
    /**
     * Input + output tokens over all turns are at most `n` (`assertTotalTokensUnder`).
     * A run with no token data fails, also with `.not`, unless `allowMissing`.
     * @example expect(s).toStayWithinTokens(4_000)
     */
    toStayWithinTokens(...args: RunArgs<T, [n: number, options?: TokenOptions]>): void
    /**
     * The estimated cost is at most `usd`, each turn priced by its model with
     * the built-in price table; `prices` adds models or overrides prices over it.
     * A run that cannot be priced fails, also with `.not`, unless `allowUnpriced`.
     * @example expect(s).toCostLessThan(0.05, { prices: { 'my-fine-tune': { input: 3, output: 12 } } })
     */
    toCostLessThan(...args: RunArgs<T, [usd: number, options?: CostMatcherOptions]>): void
    /**
     * `judge` says the run reached its goal (`options.goal`, else `metadata.goal`).
     * The judge runs in a session of its own (its model calls are recorded
     * there), and its verdict and reason are recorded as the run's grade. Await it.
     * @example await expect(s).toReachGoal(({ answer }) => answer?.includes('refunded') ?? false)
     */
    toReachGoal(...args: RunArgs<T, [judge: GoalJudge, options?: GoalOptions]>): Promise<void>
    /**
     * As above, with a `judge({ model })` from `reagent-flow/simulate`: the goal becomes its rubric.
     * @example await expect(s).toReachGoal(judge({ model: { client: openai, model: 'gpt-4o-mini' } }))
     */
    toReachGoal(...args: RunArgs<T, [judge: Judge, options?: GoalOptions]>): Promise<void>
    /**
     * In the conversation (`conversation()` of `reagent-flow/simulate`), the
     * user never had to repeat information the agent had already been given,
     * as `judge` sees it (a `judge({ model })`, or a function for a
     * rule-based verdict). The judge runs in its own run, `<name> > judge`;
     * its verdict is recorded as the run's grade. A run that is not a
     * conversation is a TypeError. Await it.
     * @example await expect(conv).toNeverMakeUserRepeat(judge({ model: { client: openai, model: 'gpt-4o-mini' } }))
     */
    toNeverMakeUserRepeat(...args: RunArgs<T, [judge: Judge]>): Promise<void>
    /** As above, with a rule-based judge: a function of what the judge is shown. */
    toNeverMakeUserRepeat(...args: RunArgs<T, [judge: RuleJudge]>): Promise<void>
    /**
     * On a conversation (`conversation()` of reagent-flow/simulate, or a trace
     * it wrote): the simulated user ended it saying its goal was met; not
     * `maxTurns`, the `stop` function, an error, or a user that gave up.
     * The failure says how it ended and shows the last exchanges.
     * @example expect(conv).toEndWithGoalMet()
     */
    toEndWithGoalMet(...args: RunArgs<T, []>): void
    /**
     * On a conversation: it ended (the user said it was done, or `stop` ended
     * it) after at most `n` exchanges. Reaching `maxTurns` is not ending.
     * @example expect(conv).toEndWithinExchanges(4)
     */
    toEndWithinExchanges(...args: RunArgs<T, [n: number]>): void
    /**
     * On a conversation: every reply of the agent passes `check`, a function
     * `(reply, { exchange, message, turns })` that throws or returns false to
     * fail (`message` is what the user said), a RegExp it must match, or an
     * asymmetric matcher. No reply at all fails, also with `.not`.
     * @example expect(conv).toSatisfyEveryReply((reply) => !/\b\d{16}\b/.test(reply))
     */
    toSatisfyEveryReply(...args: RunArgs<T, [check: ReplyCheck]>): void
    /**
     * On a conversation: the agent called `tool` while it replied in an
     * exchange before exchange `n` (`n = 3`: in exchange 1 or 2). With `.not`:
     * no call before exchange `n`, later calls allowed.
     * @example expect(conv).toHaveCalledToolBeforeExchange('lookup_order', 3)
     */
    toHaveCalledToolBeforeExchange(...args: RunArgs<T, [tool: string, n: number]>): void
    /**
     * At least `share` (0 to 1) of the runs of a run set (`repeat()`) pass
     * `check`: they completed, matched their golden (`golden: true`), and
     * `check(run)` neither threw nor returned false. A failure lists the
     * failing runs with their first failing assertion and trace file. With
     * an async check it returns a promise: await it.
     * @example expect(runs).toPassInAtLeast(0.8, (run) => expect(run).toHaveCalledTool('issue_refund'))
     */
    // biome-ignore lint/suspicious/noExplicitAny: the runs' output is what the agent returned, unknown to the matcher: any lets a check read it as the test knows it
    toPassInAtLeast(...args: RunSetArgs<T, [share: number, check: (run: Session<any>) => PromiseLike<unknown>]>): Promise<void>
    // biome-ignore lint/suspicious/noExplicitAny: as above
    toPassInAtLeast(...args: RunSetArgs<T, [share: number, check: (run: Session<any>) => unknown]>): void
  }
}
