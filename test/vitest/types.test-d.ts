/**
 * Type test of `reagent-flow/vitest`, checked by `npm run typecheck` (tsc
 * over test/): the matchers exist on vitest's `expect` with their argument
 * types, wrong uses are errors (a `@ts-expect-error` line that is no error
 * fails the check), and the fixture is typed. Never run, only compiled.
 */
import { expect, expectTypeOf } from 'vitest'
import { test, type AgentSession } from 'reagent-flow/vitest'
import { judge } from 'reagent-flow/simulate'
import {
  repeat,
  session,
  loadChain,
  type ChainNode,
  type ClosedSession,
  type GoalJudgeInput,
  type RunPosition,
  type RunSetRow,
  type RunSet,
  type Session,
  type ToolCall,
  type Trace,
} from 'reagent-flow'

declare const trace: Trace
declare const s: Session<string>
declare const chain: ChainNode
declare const maybe: Session | undefined
// biome-ignore lint/suspicious/noExplicitAny: what an untyped value (JSON.parse, a JS library) gives the matchers
declare const loose: any
/** What a LangChain agent's invoke() resolves to: the state, not a run. */
declare const agentState: { messages: Array<{ content: string; tool_calls?: unknown[] }> }

export function matcherTypes(): void {
  expectTypeOf(expect(trace).toHaveCalledTool('lookup_order')).toBeVoid()
  expect(s).not.toHaveCalledTool('delete_account')
  expect(s).toHaveCalledToolWith('issue_refund', { order_id: '42', amount: expect.any(Number) })
  expect(s).toHaveCalledToolTimes('search', 2)
  expect(s).toHaveCalledToolTimes('search', { min: 1, max: 3 })
  expect(trace).toMatchFlow(['lookup_order', '...', 'issue_refund'])
  expect(trace).toHaveSucceeded()
  expect.soft(trace).toHaveSucceeded()
  expectTypeOf(expect(s).toMatchGolden()).toEqualTypeOf<void>()
  void expect(s).toMatchGolden({ traceDir: 'test/.traces', mode: 'superset', args: { tools: { search: 'ignore' } }, ignore: ['response_text'] })
  expectTypeOf(expect(s).toMatchToolContract()).toEqualTypeOf<void>()
  expect(trace).toMatchToolContract({ allow: ['compatible', 'wording'], traceDir: 'test/.traces' })

  // @ts-expect-error a tool name is a string
  expect(trace).toHaveCalledTool(42)
  // @ts-expect-error the tool name is required
  expect(trace).toHaveCalledTool()
  // @ts-expect-error partial arguments are an object
  expect(trace).toHaveCalledToolWith('issue_refund', '42')
  // @ts-expect-error a count is a number or { min, max }
  expect(trace).toHaveCalledToolTimes('search', { mn: 1 })
  // @ts-expect-error a flow pattern is an array of names
  expect(trace).toMatchFlow('lookup_order')
  // @ts-expect-error toHaveSucceeded takes no argument
  expect(trace).toHaveSucceeded(true)
  // @ts-expect-error the update mode comes from vitest -u, REAGENT_UPDATE and CI, not from an option
  void expect(s).toMatchGolden({ update: 'all' })
  // @ts-expect-error an unknown match mode
  void expect(s).toMatchGolden({ mode: 'loose' })
  // @ts-expect-error a class of change is breaking, compatible or wording
  expect(s).toMatchToolContract({ allow: ['cosmetic'] })
  // @ts-expect-error the update mode comes from vitest -u, REAGENT_UPDATE and CI, not from an option
  expect(s).toMatchToolContract({ update: 'all' })
  // @ts-expect-error not a reagent-flow matcher
  expect(trace).toHaveCalledTools('search')
}

export function conversationMatcherTypes(): void {
  expectTypeOf(expect(s).toEndWithGoalMet()).toBeVoid()
  expect(trace).not.toEndWithinExchanges(4)
  expect(s).toSatisfyEveryReply((reply, { exchange, message, turns }) => {
    expectTypeOf(reply).toBeString()
    expectTypeOf(exchange).toBeNumber()
    expectTypeOf(message).toBeString()
    expectTypeOf(turns).toEqualTypeOf<readonly number[]>()
    expect(reply).not.toContain('@')
  })
  expect(s).toSatisfyEveryReply(/order/i)
  expect(s).toSatisfyEveryReply(expect.not.stringContaining('card'))
  expect(s).not.toHaveCalledToolBeforeExchange('issue_refund', 2)
  // @ts-expect-error a reply check is a function, a RegExp or an asymmetric matcher, not a string
  expect(s).toSatisfyEveryReply('order')
  // @ts-expect-error the exchange is a number
  expect(s).toHaveCalledToolBeforeExchange('lookup_order', '3')
  // @ts-expect-error the agent's answer is not a conversation run
  expect(agentState).toEndWithGoalMet()
}

export async function newMatcherTypes(): Promise<void> {
  expect(s).toHaveFinalAnswer('Refunded.')
  expect(s).toHaveFinalAnswer(/refunded/i)
  expect(s).not.toHaveFinalAnswer(expect.stringContaining('sorry'))
  expect(trace).toStayWithinTokens(4_000)
  expect(trace).toStayWithinTokens(4_000, { allowMissing: true })
  expect(s).toCostLessThan(0.05)
  expect(s).toCostLessThan(0.05, { prices: { 'my-fine-tune': { input: 3, output: 12 } }, allowUnpriced: true })
  expectTypeOf(expect(s).toReachGoal(({ answer }) => answer !== null)).toEqualTypeOf<Promise<void>>()
  await expect(s).toReachGoal(
    async (input) => {
      expectTypeOf(input).toEqualTypeOf<GoalJudgeInput>()
      expectTypeOf(input.answer).toEqualTypeOf<string | null>()
      return { reached: input.transcript.includes('issue_refund'), reason: 'refunded' }
    },
    { goal: 'Refund order 42', source: 'rules' },
  )

  await expect(s).toReachGoal(judge({ model: ({ rubric }) => ({ pass: rubric !== '' }) }), { goal: 'Refund order 42' })
  await expect(s).toNeverMakeUserRepeat(judge({ rubric: 'polite', model: () => ({ pass: true, score: 1 }), passScore: 0.8 }))
  await expect(s).toNeverMakeUserRepeat(({ conversation }) => ({ pass: conversation !== null }))
  expectTypeOf(s.spend().judge.usd).toEqualTypeOf<number | null>()
  // @ts-expect-error a rule-based judge answers { pass, score?, reason? }
  await expect(s).toNeverMakeUserRepeat(() => 'yes')

  // @ts-expect-error an answer is a string, a RegExp or an asymmetric matcher
  expect(s).toHaveFinalAnswer(42)
  // @ts-expect-error a token limit is a number
  expect(s).toStayWithinTokens('4000')
  // @ts-expect-error prices are USD per 1M input and output tokens
  expect(s).toCostLessThan(0.05, { prices: { 'gpt-4o': 2.5 } })
  // @ts-expect-error the judge returns a verdict
  await expect(s).toReachGoal(() => 'yes')
  // @ts-expect-error an unknown option
  await expect(s).toReachGoal(() => true, { gaol: 'typo' })
}

export function runsOnly(): void {
  // A chain node, a possibly-unset Session and an untyped value are accepted.
  expect(chain).toHaveCalledTool('issue_refund')
  expect(chain.get('billing-agent')).toMatchFlow(['...'])
  expect(maybe).toHaveSucceeded()
  expect(loose).toHaveCalledTool('search')

  // @ts-expect-error an agent's state is not a run: pass the Session
  expect(agentState).toHaveCalledTool('search')
  // @ts-expect-error an array of messages is not a run
  expect(agentState.messages).toMatchFlow(['search'])
  // @ts-expect-error the forgotten await: a Promise of a Session is not a run
  expect(session('refund-agent', () => 1)).toHaveSucceeded()
  // @ts-expect-error the answer text is not a run: use toHaveFinalAnswer on the Session
  expect(s.finalAnswer).toHaveFinalAnswer('Refunded.')
  // @ts-expect-error a number is not a run
  expect(42).toMatchGolden()
  // @ts-expect-error a list of tools is not a run
  expect([{ name: 'search' }]).toMatchToolContract()
}

export async function helperTypes(): Promise<void> {
  const resolved = await session('refund-agent', async () => ({ refunded: true }))
  expectTypeOf(resolved).toEqualTypeOf<ClosedSession<{ refunded: boolean }>>()
  expectTypeOf(resolved.output).toEqualTypeOf<{ refunded: boolean }>()
  // The function's own Session parameter does not turn T into unknown.
  const logged = await session('refund-agent', { save: false }, async (s) => {
    const [callId] = s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42' } }] })
    s.logToolResult('issue_refund', { callId, result: { ok: true } })
    return 42
  })
  expectTypeOf(logged.output).toEqualTypeOf<number>()
  expectTypeOf(s.output).toEqualTypeOf<string | undefined>()
  expectTypeOf(resolved.toolCalls('search')).toEqualTypeOf<ToolCall[]>()
  expectTypeOf(resolved.toolNames()).toEqualTypeOf<string[]>()
  expectTypeOf(resolved.finalAnswer).toEqualTypeOf<string | null>()
  expectTypeOf(loadChain(resolved).get('billing-agent').finalAnswer).toEqualTypeOf<string | null>()
  expectTypeOf(chain.toolCalls()).toEqualTypeOf<ToolCall[]>()
}

export function fixtureTypes(): void {
  test('refunds order 42', async ({ agentSession, reagentOptions }) => {
    expectTypeOf(agentSession).toEqualTypeOf<AgentSession>()
    expectTypeOf(reagentOptions.traceDir).toEqualTypeOf<string | undefined>()
    const first = await agentSession(async () => 42)
    expectTypeOf(first).toEqualTypeOf<ClosedSession<number>>()
    expectTypeOf((await agentSession(async (s) => s.name.length > 0)).output).toEqualTypeOf<boolean>()
    const named = await agentSession({ name: 'billing', metadata: { goal: 'refund' } }, () => 'ok')
    expectTypeOf(named.output).toEqualTypeOf<string>()
    // @ts-expect-error an unknown option
    await agentSession({ nam: 'billing' }, () => 1)
    // @ts-expect-error the function comes last
    await agentSession(() => 1, { name: 'billing' })
  })
  test.override({ reagentOptions: { traceDir: 'test/.traces' } })
  // @ts-expect-error reagentOptions are session options
  test.override({ reagentOptions: { tracedir: 'test/.traces' } })
}

export async function runSetTypes(): Promise<void> {
  const runs = await repeat<string>(
    5,
    'refund',
    { concurrency: 2, limits: { turns: 8 }, faults: [{ tool: 'charge_card', error: 'card declined', times: 1 }] },
    (s, run) => {
      expectTypeOf(run).toEqualTypeOf<RunPosition>()
      s.logLlmCall({ responseText: 'ok' })
      return `run ${run.index}`
    },
  )
  // (expectTypeOf cannot compare classes with overloaded methods: an assignment checks the type instead.)
  const typed: RunSet<string> = runs
  expectTypeOf(typed.runs).toEqualTypeOf<readonly Session<string>[]>()
  expectTypeOf(runs.passRate((run) => run.assertCalled('x'))).toEqualTypeOf<number>()
  expectTypeOf(runs.passRate(async (run) => run.assertCalled('x'))).toEqualTypeOf<Promise<number>>()
  expectTypeOf(runs.passAll((run) => run.output === 'ok')).toEqualTypeOf<boolean>()
  expectTypeOf(runs.summary().perRun).toEqualTypeOf<RunSetRow[]>()
  expectTypeOf(expect(runs).toPassInAtLeast(0.8, (run) => expect(run).toHaveCalledTool('x'))).toEqualTypeOf<void>()
  expectTypeOf(expect(runs).toPassInAtLeast(0.8, async (run) => expect(run).toHaveCalledTool('x'))).toEqualTypeOf<Promise<void>>()
  // @ts-expect-error the share comes first
  expect(runs).toPassInAtLeast((run: Session) => run.assertCalled('x'), 0.8)
  // @ts-expect-error an unknown limit
  await repeat(2, 'x', { limits: { steps: 3 } }, () => 1)
  // @ts-expect-error a fault names its tool
  await repeat(2, 'x', { faults: [{ error: 'card declined' }] }, () => 1)
}
