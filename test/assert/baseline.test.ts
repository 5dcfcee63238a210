import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AgentAssertionError, assertMatchesBaseline, session, TraceNotFoundError, type Session } from '../../src/entries/index.js'
import { normalizeTrace } from '../../src/entries/golden.js'
import { renderGolden } from '../../src/golden/index.js'
import { tempDir } from '../helpers/temp-dir.js'

const PYTHON_GOLDEN = new URL('../../fixtures/reagent-flow-py-0.5/golden/refund-agent.trace.json', import.meta.url)

/** Records the behaviour of the Python golden, with `amount` refunded and `answer` given. */
function refundAgent(amount = 19.99, answer = 'Refunded $19.99 for order 42.') {
  return (s: Session): void => {
    const [lookup] = s.logLlmCall({
      messages: [{ role: 'user', content: 'Refund order 42' }],
      toolCalls: [{ name: 'lookup_order', arguments: { order_id: '42' } }],
      model: 'gpt-4o-2024-08-06',
    })
    s.logToolResult('lookup_order', { callId: lookup!, result: { order_id: '42', amount: 19.99, eligible: true } })
    s.logLlmCall({ toolCalls: [{ name: 'issue_refund', arguments: { order_id: '42', amount } }] })
    s.logToolResult('issue_refund', { result: { ok: true, refund_id: 'r_1' } })
    s.logLlmCall({ responseText: answer })
  }
}

function withPythonGolden(): { traceDir: string; path: string } {
  const traceDir = tempDir()
  mkdirSync(join(traceDir, 'golden'))
  const path = join(traceDir, 'golden', 'refund-agent.trace.json')
  copyFileSync(PYTHON_GOLDEN, path)
  return { traceDir, path }
}

describe('assertMatchesBaseline()', () => {
  it('passes a run that behaves like the reagent-flow 0.5 golden, and returns the session for chaining', async () => {
    const { traceDir } = withPythonGolden()
    const s = await session('refund-agent', { traceDir }, refundAgent())
    expect(s.assertMatchesBaseline()).toBe(s)
  })

  it('throws an AgentAssertionError whose message is the header line and the formatted diff, with both traces in normal form', async () => {
    const { traceDir, path } = withPythonGolden()
    const s = await session('refund-agent', { traceDir }, refundAgent(25))
    let error: unknown
    try {
      s.assertMatchesBaseline()
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(AgentAssertionError)
    const failure = error as AgentAssertionError
    expect(failure.name).toBe('AssertionError')
    expect(failure.message).toBe(
      [
        `Trace "refund-agent" does not match its golden baseline (${path}):`,
        '1 difference (strict) · - expected: 3 turns · + actual: 3 turns',
        '',
        'Turn 1 (expected) ↔ Turn 1 (actual)',
        '  ~ issue_refund',
        '      amount: 19.99 → 25',
      ].join('\n'),
    )
    expect(failure).toMatchObject({ traceName: 'refund-agent', assertion: '"refund-agent" does not match its golden baseline (1 difference)', showDiff: true })
    expect(failure.actual).toEqual(renderGolden(s.trace).trace)
    expect(failure.expected).toEqual(normalizeTrace(JSON.parse(readFileSync(path, 'utf8'))))
  })

  it('throws TraceNotFoundError naming the path and how to record a golden', async () => {
    const traceDir = tempDir()
    const s = await session('refund-agent', { traceDir }, refundAgent())
    const path = join(traceDir, 'golden', 'refund-agent.trace.json')
    expect(() => s.assertMatchesBaseline()).toThrowError(TraceNotFoundError)
    expect(() => s.assertMatchesBaseline()).toThrowError(
      `No trace file at ${path}. There is no golden baseline for "refund-agent" to compare with. ` +
        `Record one with session("refund-agent", { golden: true }, ...) from a run you trust, then commit ${path}.`,
    )
  })

  it("accepts reagent-flow 0.5's ignoreFields (an array or a Set) next to ignore", async () => {
    const { traceDir } = withPythonGolden()
    const s = await session('refund-agent', { traceDir }, refundAgent(25, 'Done.'))
    expect(() => s.assertMatchesBaseline({ ignoreFields: ['issue_refund.amount'] })).toThrowError(
      /response_text: "Refunded \$19\.99 for order 42\." → "Done\."/,
    )
    s.assertMatchesBaseline({ ignoreFields: new Set(['issue_refund.amount', 'response_text']) })
    s.assertMatchesBaseline({ ignoreFields: ['issue_refund.amount'], ignore: ['response_text'] })
  })

  it('takes the diff options: mode and argument rules', async () => {
    const { traceDir } = withPythonGolden()
    const s = await session('refund-agent', { traceDir }, refundAgent(25))
    s.assertMatchesBaseline({ args: { tools: { issue_refund: ['order_id'] } } })
    expect(() => s.assertMatchesBaseline({ mode: 'unordered' })).toThrowError(AgentAssertionError)
  })

  it('works on a plain trace with an explicit traceDir, and the session defaults to its own traceDir and redact', async () => {
    const { traceDir } = withPythonGolden()
    const s = await session('refund-agent', { save: false }, refundAgent())
    assertMatchesBaseline(s.trace, { traceDir })
    expect(() => s.assertMatchesBaseline()).toThrowError(TraceNotFoundError)
    const secretDir = tempDir()
    const redact = { keys: ['order_id'] }
    await session('refund-agent', { traceDir: secretDir, golden: true, redact }, refundAgent())
    const rerun = await session('refund-agent', { traceDir: secretDir, redact }, refundAgent())
    rerun.assertMatchesBaseline()
  })

  it('rejects unknown options, listing the valid ones', async () => {
    const s = await session('refund-agent', { save: false }, refundAgent())
    expect(() => s.assertMatchesBaseline({ ignore_fields: [] } as never)).toThrowError(
      new TypeError('Unknown assertMatchesBaseline() option "ignore_fields". Valid options: mode, args, ignore, traceDir, ignoreFields, redact.'),
    )
    expect(() => s.assertMatchesBaseline({ ignoreFields: 'results' as never })).toThrowError(
      new TypeError('assertMatchesBaseline() option "ignoreFields" must be an array or a Set of strings; got string.'),
    )
  })
})
