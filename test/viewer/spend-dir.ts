/** A trace directory with a support run, its simulated user and judge (children saying their role), and a run without helpers. */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { saveTrace } from '../../src/entries/files.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { tempDir } from '../helpers/temp-dir.js'

const T0 = 1_800_000_000

/** Its path: `<root>/.reagent` (root: a temporary folder of the test, removed after it). */
export function supportDir(root: string = tempDir()): string {
  const dir = join(root, '.reagent')
  mkdirSync(dir)
  const helper = (role: string, model: string, input: number, output: number) =>
    buildTrace(`support > ${role}`, [{ text: 'ok', model, tokens: { input_tokens: input, output_tokens: output } }], {
      trace_id: `trace-${role}`,
      parent_trace_id: 'trace-support',
      metadata: { reagent_role: role },
      started_at: T0 + 1,
    })
  const traces = [
    buildTrace('support', [{ text: 'Refunded.', model: 'gpt-4o-mini', tokens: { input_tokens: 1000, output_tokens: 100 } }], {
      trace_id: 'trace-support',
      started_at: T0,
    }),
    helper('user', 'gpt-4o', 20_000, 500),
    helper('judge', 'my-judge', 300, 20),
    buildTrace('alone', [{ text: 'hi', tokens: { input_tokens: 10, output_tokens: 1 } }], { started_at: T0 }),
  ]
  for (const trace of traces) saveTrace(trace, { traceDir: dir })
  return dir
}
