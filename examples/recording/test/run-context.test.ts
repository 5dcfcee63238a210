// test/run-context.test.ts
import { expect, test } from 'vitest'
import { getRunContext, session } from 'reagent-flow'

// A logger that stamps every line with the run it belongs to, so logs and traces can be joined.
const lines: Array<Record<string, unknown>> = []
function log(message: string): void {
  lines.push({ message, ...getRunContext() })
}

async function chargeCard(orderId: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 5))
  log(`charged order ${orderId}`)
}

test('every log line knows its run, even with runs side by side', async () => {
  const options = (user: string) => ({ save: false, sessionId: `conv-${user}`, userId: user, metadata: { suite: 'billing' } })
  const [ann, bob] = await Promise.all([
    session('charge', options('ann'), () => chargeCard('42')),
    session('charge', options('bob'), () => chargeCard('43')),
  ])

  expect(lines).toContainEqual({ message: 'charged order 42', runId: ann.traceId, sessionId: 'conv-ann', userId: 'ann', metadata: { suite: 'billing' } })
  expect(lines).toContainEqual({ message: 'charged order 43', runId: bob.traceId, sessionId: 'conv-bob', userId: 'bob', metadata: { suite: 'billing' } })
  expect(getRunContext()).toEqual({ runId: undefined, sessionId: undefined, userId: undefined, metadata: {} }) // outside a session
})
