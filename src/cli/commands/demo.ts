/** `reagent-flow demo`: records a scripted example agent and prints its trace (`npm run demo`). */
import { EXIT_OK, type Command } from '../command.js'
import { recordDemo, runDemo } from '../demo/run-demo.js'

/** `demo --json` */
export interface DemoOutput {
  file: string | null
  answer: string | null
}

export const demoCommand: Command = {
  name: 'demo',
  args: '',
  summary: 'record a scripted example agent (no API key, no network), assert on it, compare it with a golden',
  details: [
    'Writes <dir>/demo-refund-agent.trace.json and its golden <dir>/golden/demo-refund-agent.trace.json,',
    'where <dir> is a new temporary folder unless --dir is given: the demo leaves nothing in your project.',
    'Exits 1 if an assertion on the run fails. With --json it records the run only, and prints { file, answer }.',
  ],
  options: {
    dir: { type: 'string', value: '<path>', description: 'the trace directory (default: a new temporary folder)' },
  },
  positionals: { min: 0, max: 0, names: '' },
  examples: ['npx reagent-flow demo', 'npx reagent-flow demo --dir /tmp/traces && npx reagent-flow show demo-refund-agent --dir /tmp/traces'],
  async run(input, ctx) {
    // Only a directory the user names: the default one (.reagent) may be a repository's, whose goldens are committed.
    const traceDir = typeof input.options.dir === 'string' && input.options.dir !== '' ? ctx.dir : undefined
    if (!ctx.json) return runDemo({ traceDir, color: ctx.c.isColorSupported, write: ctx.write })
    const s = await recordDemo(traceDir)
    const out: DemoOutput = { file: s.path ?? null, answer: s.output ?? null }
    ctx.printJson(out)
    return EXIT_OK
  },
}
