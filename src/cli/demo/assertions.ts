/**
 * The demo's assertions: what a test of the refund agent would check, run on
 * the recorded session and printed one per line, as the code that runs them.
 */
import type { Session } from '../../session/session.js'
import type { Colors } from '../../report/colors.js'

interface DemoAssertion {
  /** The call as a test would write it. */
  code: string
  run: (s: Session) => void
}

const ASSERTIONS: readonly DemoAssertion[] = [
  { code: `s.assertCalled('issue_refund')`, run: (s) => s.assertCalled('issue_refund') },
  { code: `s.assertCalledBefore('check_policy', 'issue_refund')`, run: (s) => s.assertCalledBefore('check_policy', 'issue_refund') },
  {
    code: `s.assertCalledWith('issue_refund', { order_id: '42', amount: 19.99 })`,
    run: (s) => s.assertCalledWith('issue_refund', { order_id: '42', amount: 19.99 }),
  },
  { code: `s.assertFlow(['lookup_order', '...', 'issue_refund'])`, run: (s) => s.assertFlow(['lookup_order', '...', 'issue_refund']) },
  { code: `s.assertToolSucceeded('issue_refund')`, run: (s) => s.assertToolSucceeded('issue_refund') },
  { code: `s.assertMaxTurns(5)`, run: (s) => s.assertMaxTurns(5) },
  { code: `s.assertTotalTokensUnder(2_000)`, run: (s) => s.assertTotalTokensUnder(2_000) },
]

/** Runs every assertion; returns the lines to print and whether all passed. */
export function runAssertions(s: Session, c: Colors): { lines: string[]; passed: boolean } {
  let passed = true
  const lines = ASSERTIONS.map(({ code, run }) => {
    try {
      run(s)
      return `  ${c.green('✓')} ${code}`
    } catch (error) {
      passed = false
      const message = error instanceof Error ? error.message : String(error)
      return `  ${c.red('✗')} ${code}\n${message.replace(/^(?=.)/gm, '    ')}`
    }
  })
  return { lines, passed }
}
