/**
 * The demo's golden baseline: the recorded run becomes the golden, the same
 * agent run again matches it, and the agent after a "prompt change" (it
 * skips check_policy) does not, with the diff that says so.
 *
 * The golden is recorded with update mode `all`, so the demo prints the same
 * thing on every run, whatever an earlier run left in the trace directory.
 */
import { formatDiff } from '../../diff/format.js'
import { matchGolden } from '../../golden/index.js'
import type { Colors } from '../../report/colors.js'
import { session, type Session } from '../../run/session.js'
import { runRefundAgent, type AgentVariant } from './refund-agent.js'

const REQUEST = 'Please refund order 42, it arrived broken.'

/** Runs the agent again under the recorded run's name, in memory only. */
function rerun(recorded: Session, variant: AgentVariant): Promise<Session<string>> {
  return session(recorded.name, { save: false }, (s) => runRefundAgent(s, REQUEST, variant))
}

/** Records the golden, runs both comparisons; returns the lines to print (the failing comparison is expected). */
export async function runGoldenDemo(recorded: Session, c: Colors): Promise<string[]> {
  const traceDir = recorded.traceDir
  const baseline = matchGolden(recorded.trace, { traceDir, update: 'all' })
  const same = matchGolden((await rerun(recorded, {})).trace, { traceDir, update: 'none' })
  const changed = matchGolden((await rerun(recorded, { skipPolicy: true })).trace, { traceDir, update: 'none' })
  const mark = (pass: boolean): string => (pass ? c.green('✓') : c.red('✗'))
  const lines = [
    `  ${c.green('✓')} the run above, recorded as the golden baseline: ${c.cyan(baseline.path)}`,
    `  ${mark(same.pass)} the same agent, run again: ${same.pass ? 'matches its golden' : 'differs from its golden'}`,
    `  ${mark(changed.pass)} the agent after a prompt change that drops the policy check: ${changed.pass ? 'matches its golden' : 'differs from its golden'}`,
  ]
  if (changed.diff !== null) {
    const diff = formatDiff(changed.diff, { color: c.isColorSupported })
    lines.push('', diff.replace(/^(?=.)/gm, '    '), '', c.dim('  (This failure is part of the demo: a golden comparison catches the skipped policy check.)'))
  }
  return lines
}
