import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import {
  AgentAssertionError,
  AmbiguousToolCallError,
  AmbiguousTraceError,
  BudgetExceededError,
  ContractFileError,
  JudgeAnswerError,
  McpServerError,
  ModelFaultError,
  GitHubApiError,
  OtlpExportError,
  OtlpFormatError,
  QuarantineFileError,
  RecordingFormatError,
  ReagentError,
  ReplayMissError,
  ResultsFileError,
  SessionClosedError,
  SimulatedToolError,
  ToolFaultError,
  TraceFileError,
  TraceFormatError,
  TraceNotFoundError,
  UnscriptableRunError,
  UnusedRecordingError,
  UsageError,
  isAgentAssertionError,
  isAmbiguousToolCallError,
  isAmbiguousTraceError,
  isBudgetExceededError,
  isContractFileError,
  isJudgeAnswerError,
  isMcpServerError,
  isModelFaultError,
  isGitHubApiError,
  isOtlpExportError,
  isOtlpFormatError,
  isQuarantineFileError,
  isRecordingFormatError,
  isReagentError,
  isReplayMissError,
  isResultsFileError,
  isSessionClosedError,
  isSimulatedToolError,
  isToolFaultError,
  isTraceFileError,
  isTraceFormatError,
  isTraceNotFoundError,
  isUnscriptableRunError,
  isUnusedRecordingError,
  isUsageError,
} from '../../src/errors/index.js'
import {
  ScriptExhaustedError,
  ToolScriptExhaustedError,
  UnsupportedRequestError,
  isScriptExhaustedError,
  isToolScriptExhaustedError,
  isUnsupportedRequestError,
} from '../../src/entries/fake.js'
import { LedgerError, isLedgerError } from '../../src/entries/ledger.js'
import { SimulatedUserError, isSimulatedUserError } from '../../src/entries/simulate.js'

interface GuardCase {
  guard: (value: unknown) => boolean
  error: ReagentError
}

/** One instance of each class, built as reagent-flow builds it, and the guard that should know it. */
const CASES: readonly GuardCase[] = [
  { guard: isSessionClosedError, error: new SessionClosedError('checkout', 'logLlmCall') },
  { guard: isAmbiguousToolCallError, error: new AmbiguousToolCallError('search', ['a', 'b']) },
  { guard: isTraceNotFoundError, error: new TraceNotFoundError('/tmp/x.trace.json', 'Record it first.') },
  { guard: isAmbiguousTraceError, error: new AmbiguousTraceError('checkout', ['a.trace.json', 'b.trace.json']) },
  { guard: isTraceFormatError, error: new TraceFormatError('x.trace.json', 'turns', 'type', 'must be array') },
  { guard: isTraceFileError, error: new TraceFileError('/tmp/x', 'write', Object.assign(new Error('no'), { code: 'ENOSPC' })) },
  { guard: isAgentAssertionError, error: new AgentAssertionError('failed', { traceName: 'checkout', assertion: 'never called' }) },
  { guard: isUsageError, error: new UsageError('unknown option --x') },
  { guard: isResultsFileError, error: new ResultsFileError('results.json', 'is shard 1/3 again', "Pass each shard's results once") },
  { guard: isOtlpFormatError, error: new OtlpFormatError('spans.json', '', 'not JSON') },
  { guard: isQuarantineFileError, error: new QuarantineFileError('.reagent/quarantine.json', 'is not an object', 2) },
  { guard: isGitHubApiError, error: new GitHubApiError('POST /repos/a/b/issues/1/comments', 403, 'refused', 'Fix it') },
  { guard: isOtlpExportError, error: new OtlpExportError('http://localhost:4318/v1/traces', 503, 'the receiver answered 503') },
  {
    guard: isBudgetExceededError,
    error: new BudgetExceededError('stopped', { sessionName: 's', limit: 'turns', max: 1, actual: 2, stopped: { kind: 'model' }, reason: 'r' }),
  },
  { guard: isToolFaultError, error: new ToolFaultError('charge', 'card declined') },
  {
    guard: isSimulatedToolError,
    error: new SimulatedToolError('lookup_order', 'result.amount: must be number', 'simulatedTool("lookup_order"): invalid twice'),
  },
  {
    guard: isModelFaultError,
    error: new ModelFaultError({ fault: 429, model: null, message: 'rate limited', headers: {}, error: { message: 'm', type: 't', code: null } }),
  },
  {
    guard: isReplayMissError,
    error: new ReplayMissError('miss', { sessionName: 's', endpoint: 'openai POST /chat/completions', step: 1, recordingPath: 'r.json' }),
  },
  { guard: isJudgeAnswerError, error: new JudgeAnswerError('support', 'it answered nothing, twice') },
  {
    guard: isMcpServerError,
    error: new McpServerError('MCP server "node orders.mjs" exited with code 3', { server: 'node orders.mjs', exitCode: 3, stderr: 'boom' }),
  },
  { guard: isUnusedRecordingError, error: new UnusedRecordingError('unused', { sessionName: 's', recordingPath: 'r.json', unused: ['x'] }) },
  { guard: isRecordingFormatError, error: new RecordingFormatError('r.json', 'it is cut short') },
  { guard: isContractFileError, error: new ContractFileError('a.tools.json', 'it is not JSON') },
  { guard: isLedgerError, error: new LedgerError('run.begin', 'http://localhost:8080', null, null, 'could not reach the ledger') },
  {
    guard: isScriptExhaustedError,
    error: new ScriptExhaustedError(
      'scriptedFetch',
      { call: 2, api: 'chat.completions', model: 'gpt-4o', messages: [], tools: [], stream: false, body: {} },
      1,
      'POST /v1/chat/completions',
    ),
  },
  { guard: isToolScriptExhaustedError, error: new ToolScriptExhaustedError('lookup_order', 2, 1) },
  { guard: isUnscriptableRunError, error: new UnscriptableRunError('refund-agent', 2, 'recorded neither response text nor tool calls') },
  { guard: isUnsupportedRequestError, error: new UnsupportedRequestError('GET', 'http://localhost/v1/models', 'it is not a model call') },
  { guard: isSimulatedUserError, error: new SimulatedUserError('the user model failed', { sessionName: 'support', exchange: 2 }) },
]

/** An error made in another realm (a `vm` context) that carries reagent-flow's brand and `name`, as another copy of the package would. */
function foreignError(name: string): unknown {
  return runInNewContext(
    `const error = new Error('from another realm')
     error.name = NAME
     Object.defineProperty(error, Symbol.for('reagent-flow.error'), { value: true })
     error`,
    { NAME: name },
  )
}

describe('the type guard of each error class (of reagent-flow, reagent-flow/otel, reagent-flow/fake, reagent-flow/ledger, reagent-flow/simulate)', () => {
  it.each(CASES.map((c) => [c.error.constructor.name, c] as const))('%s: its guard accepts an instance of its class', (_, { guard, error }) => {
    expect(guard(error)).toBe(true)
    expect(isReagentError(error)).toBe(true)
  })

  it.each(CASES.map((c) => [c.error.constructor.name, c] as const))(
    '%s: its guard accepts an error of its name from another realm that carries the reagent-flow brand',
    (_, { guard, error }) => {
      const foreign = foreignError(error.name)
      expect(foreign instanceof Error).toBe(false)
      expect(guard(foreign)).toBe(true)
      expect(guard({ name: error.name, [Symbol.for('reagent-flow.error')]: true })).toBe(true)
    },
  )

  it.each(CASES.map((c) => [c.error.constructor.name, c] as const))(
    '%s: its guard rejects the other classes, an unbranded error of the same name, and values that are not errors',
    (_, { guard, error }) => {
      for (const other of CASES) if (other.error !== error) expect(guard(other.error)).toBe(false)
      const unbranded = new Error('same name, not ours')
      unbranded.name = error.name
      expect(guard(unbranded)).toBe(false)
      expect(guard(runInNewContext(`const e = new Error('x'); e.name = ${JSON.stringify(error.name)}; e`))).toBe(false)
      expect(guard(new ReagentError('the base class'))).toBe(false)
      for (const value of [undefined, null, 0, error.name, {}]) expect(guard(value)).toBe(false)
    },
  )

  it('never throws, even on a revoked Proxy that refuses every look', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    for (const { guard } of CASES) expect(guard(proxy)).toBe(false)
  })

  it("knows an AgentAssertionError by its name AssertionError, but not node:assert's AssertionError", async () => {
    const { AssertionError } = await import('node:assert')
    expect(new AgentAssertionError('x', { traceName: 't', assertion: 'a' }).name).toBe('AssertionError')
    expect(isAgentAssertionError(new AssertionError({ message: 'x' }))).toBe(false)
  })
})
