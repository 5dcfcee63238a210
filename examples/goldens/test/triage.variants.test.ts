// test/triage.variants.test.ts
import { expect } from 'vitest'
import { repeat, type Session } from 'reagent-flow'
import { test } from 'reagent-flow/vitest'

// A support agent that is right in two ways: it refunds a broken order, or hands it to a colleague.
function triageAgent(s: Session, escalates: boolean): string {
  const [read] = s.logLlmCall({ toolCalls: [{ name: 'read_ticket', arguments: { ticket: 'T-7' } }], model: 'gpt-4o' })
  s.logToolResult('read_ticket', { callId: read!, result: { order_id: '42', complaint: 'arrived broken' } })
  const [act] = s.logLlmCall({
    toolCalls: [escalates ? { name: 'escalate', arguments: { ticket: 'T-7' } } : { name: 'issue_refund', arguments: { order_id: '42' } }],
    model: 'gpt-4o',
  })
  s.logToolResult(escalates ? 'escalate' : 'issue_refund', { callId: act!, result: { ok: true } })
  return escalates ? 'A colleague will call you today.' : 'Your refund is on its way.'
}

test('triages a broken order', async ({ agentSession }) => {
  const s = await agentSession((s) => triageAgent(s, process.env.ESCALATE === '1'))
  // Passes when the run matches any accepted variant of the golden; on a mismatch, the diff is
  // against the closest, and the failure prints the command that adds the run as a variant.
  expect(s).toMatchGolden()
})

test('every run of a set matches one of the accepted variants', async () => {
  const runs = await repeat(4, 'triage', (s, run) => triageAgent(s, run.index % 2 === 0))
  // The runs of a set share one golden (the set's); these alternate between the two behaviours,
  // so on the first run of this file the golden is written by run 1 and runs 2 and 4 fail:
  // `npx reagent-flow approve --add` one of them, and all four pass from then on.
  expect(runs).toPassInAtLeast(0.5, (run) => expect(run).toMatchGolden())
})
