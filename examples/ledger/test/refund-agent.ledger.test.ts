// test/refund-agent.ledger.test.ts
import OpenAI from 'openai'
import { expect, inject } from 'vitest'
import { scriptedFetch } from 'reagent-flow/fake'
import { createLedgerClient, LedgerError, ledgerSent } from 'reagent-flow/ledger'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { test } from 'reagent-flow/vitest'

const ledger = createLedgerClient(inject('ledgerUrl'), { token: process.env.LEDGER_TOKEN }) // no token: a single user's ledger

test('the session reports its run to the ledger, which prices it', async ({ agentSession }) => {
  // In your app: instrumentOpenAI(new OpenAI()). Here a scripted model answers, offline.
  const openai = instrumentOpenAI(new OpenAI({ apiKey: 'sk-test', fetch: scriptedFetch([{ text: 'Refunded $19.99.', usage: { inputTokens: 1000, outputTokens: 100 } }]) }))
  const options = { name: 'refund-agent', ledger: inject('ledgerUrl'), metadata: { goal: 'Refund order 42', budget_usd: 0.05 } }

  const s = await agentSession(options, async () => {
    const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Refund order 42.' }] })
    return completion.choices[0]!.message.content
  })

  await ledgerSent(s) // session() never waits for the ledger; this does, before reading the run back
  const { run, turns, cost_usd, over_budget } = await ledger.get(s.trace.trace_id) // run_id is the trace_id
  expect(run).toMatchObject({ goal: 'Refund order 42', status: 'completed', final_response: 'Refunded $19.99.', budget_usd: 0.05 })
  expect(run?.agent).toBe('the session reports its run to the ledger, which prices it > refund-agent') // in a test, the session's name is the test's > yours
  expect(turns).toBe(1)
  expect(cost_usd).toBeCloseTo(0.0035) // gpt-4o: 1,000 tokens in at $2.50 per 1M, 100 out at $10
  expect(over_budget).toEqual([])
})

test('any program opens, closes, grades and lists runs with the typed client', async () => {
  const { run_id } = await ledger.begin({ agent: 'nightly-report', goal: 'Summarise the sales of the day' })
  await ledger.complete({ run_id, status: 'completed', final_response: 'Sales: $1,234.' })

  const again = ledger.complete({ run_id, status: 'failed' })
  await expect(again).rejects.toThrow(LedgerError)
  await expect(again).rejects.toMatchObject({ status: 409, body: { error: 'run_closed' } })

  expect(await ledger.grade({ run_id, grade: 'pass', source: 'ci' })).toMatchObject({ graded: 1, run_ids: [run_id] })
  const { runs } = await ledger.list({ agent: 'nightly-report', grade: 'pass', fields: ['run_id', 'status'] })
  expect(runs).toEqual([{ run_id, status: 'completed' }])
})
