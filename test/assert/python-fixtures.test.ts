import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { assertOn, loadTrace } from '../../src/entries/index.js'
import { failureOf } from '../helpers/trace-builder.js'

const load = (name: string) => loadTrace(new URL(`../../fixtures/reagent-flow-py-0.5/${name}`, import.meta.url).pathname)

describe('assertions on traces written by reagent-flow 0.5 (Python)', () => {
  it('refund-agent: calls, order, arguments, tokens in prompt/completion names, cost', () => {
    const t = assertOn(load('golden/refund-agent.trace.json'))
    t.assertCalled('issue_refund')
    t.assertCalledBefore('lookup_order', 'issue_refund')
    t.assertFlow(['lookup_order', 'issue_refund'])
    t.assertCalledWith('issue_refund', { order_id: '42', amount: 19.99 })
    t.assertToolSucceeded('issue_refund')
    t.assertToolOutputMatches('lookup_order', { schema: z.object({ order_id: z.string(), amount: z.number(), eligible: z.boolean() }) })
    t.assertTotalTokensUnder(532)
    expect(failureOf(() => t.assertTotalTokensUnder(531)).assertion).toBe('Total tokens 532 exceeds limit of 531')
    // 480 input tokens at $2.50/M + 52 output at $10/M = $0.00172
    t.assertCostUnder({ usd: 0.00172, modelCosts: { 'gpt-4o': { input: 2.5, output: 10 } } })
    expect(failureOf(() => t.assertCostUnder({ usd: 0.0017, modelCosts: { 'gpt-4o': { input: 2.5, output: 10 } } })).assertion).toBe(
      'Estimated cost $0.00172 exceeds limit of $0.00170',
    )
  })

  it('parallel-search: the failed call of a parallel pair', () => {
    const t = assertOn(load('parallel-search.trace.json'))
    t.assertCalledTimes('search', { min: 2, max: 2 })
    expect(failureOf(() => t.assertToolSucceeded('search')).assertion).toBe('"search" failed in turn 0: TimeoutError: upstream took 30s')
  })

  it('planner and researcher: the handoff between them', () => {
    const planner = load('planner.trace.json')
    const researcher = assertOn(load('researcher.trace.json'))
    researcher.assertHandoffReceived(planner)
    researcher.assertHandoffHasFields(['topic', 'depth', 'sources'])
    researcher.assertNoExtraFields({ allowed: ['topic', 'depth', 'sources'] })
    researcher.assertHandoffMatches({
      schema: { type: 'object', properties: { depth: { type: 'integer' }, sources: { type: 'array', items: { type: 'string' } } } },
    })
    researcher.assertContextPreserved({ topic: 'llm testing', depth: 2 }, { fields: ['topic', 'depth'] })
    expect(failureOf(() => assertOn(planner).assertTotalTokensUnder(100)).assertion).toBe(
      'Cannot verify token limit: no token data recorded in 1 turn(s). Fix instrumentation or pass allowMissing: true.',
    )
  })

  it('with-secrets: the redacted argument is what the assertion sees', () => {
    const t = assertOn(load('with-secrets.trace.json'))
    t.assertCalledWith('call_api', { api_key: '[REDACTED]', path: expect.stringMatching(/^\/v1\//) })
  })
})
