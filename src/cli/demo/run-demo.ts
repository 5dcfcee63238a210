/**
 * `reagent-flow demo`: records the scripted refund agent, prints what was
 * recorded, asserts on it and compares it with a golden baseline, so a
 * newcomer sees the whole loop in one command.
 *
 * Without a directory of the user's it records into a new temporary folder:
 * `npm run demo` on a fresh clone, or `npx reagent-flow demo` in a project,
 * leaves nothing in the repository (decision note 049).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { colors } from '../../report/colors.js'
import { formatStackTrace } from '../../report/stack-trace.js'
import { session, type Session } from '../../run/session.js'
import { runAssertions } from './assertions.js'
import { runGoldenDemo } from './golden-demo.js'
import { runRefundAgent } from './refund-agent.js'

export interface DemoOptions {
  /** Where the run and its golden are written. Default: a new temporary folder. */
  traceDir?: string | undefined
  color?: boolean
  write?: (text: string) => void
}

/** A new temporary folder for a demo run and its golden. */
function demoTraceDir(): string {
  return mkdtempSync(join(tmpdir(), 'reagent-flow-demo-'))
}

/** Records the demo agent's run into `traceDir` (default: a new temporary folder) and returns the closed session. */
export function recordDemo(traceDir: string = demoTraceDir()): Promise<Session<string>> {
  return session('demo-refund-agent', { traceDir, metadata: { goal: 'Refund order 42' } }, (s) =>
    runRefundAgent(s, 'Please refund order 42, it arrived broken.'),
  )
}

export async function runDemo({ traceDir = demoTraceDir(), color, write = (t) => process.stdout.write(t) }: DemoOptions = {}): Promise<number> {
  const c = colors(color)
  write(`${c.bold('reagent-flow demo')}: a scripted refund agent (no API key, no network)\n\n`)
  const s = await recordDemo(traceDir)
  write(`${formatStackTrace(s.trace, { color: c.isColorSupported })}\n\n`)
  write(`Answer: ${s.output}\n`)
  write(`Trace written to ${c.cyan(s.path ?? '(not written)')}\n\n`)

  const assertions = runAssertions(s, c)
  write(`${c.bold('Assertions')} on the recorded run\n${assertions.lines.join('\n')}\n\n`)
  write(`${c.bold('Golden baseline')}\n${(await runGoldenDemo(s, c)).join('\n')}\n`)
  return assertions.passed ? 0 : 1
}
