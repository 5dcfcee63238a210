/** `reagent-flow diff <name>` / `diff <a> <b>`: the latest run against its golden, or two traces. */
import { diffTraces } from '../../diff/diff-traces.js'
import { formatDiff } from '../../diff/format.js'
import { ARGS_MODES, MATCH_MODES, resolveDiffOptions } from '../../diff/options.js'
import type { DiffOptions, TraceDiff } from '../../diff/types.js'
import { TraceNotFoundError } from '../../errors/index.js'
import { compareWithGolden, fileGoldenStore, renderGolden } from '../../golden/index.js'
import { DEFAULT_TRACE_DIR, loadTrace } from '../../storage/index.js'
import { shellCommand } from '../../report/shell.js'
import { stringOption } from '../args.js'
import { EXIT_CHECK_FAILED, EXIT_OK, type Command, type CommandInput } from '../command.js'
import { resolveRun } from '../resolve.js'

/** `diff --json` */
export interface DiffOutput {
  /** The file compared against: the golden, or `<a>`. */
  expected: string
  /** The file compared: the latest run, or `<b>`. */
  actual: string
  /** Against a golden with several accepted variants: the one compared with (the closest, from 1), of how many. */
  variant?: { index: number; of: number }
  diff: TraceDiff
}

/** --mode, --args and every --ignore (repeated, or comma-separated), as `diffTraces` takes them. */
export function diffOptionsOf(input: CommandInput): DiffOptions {
  const mode = stringOption(input, 'mode') as DiffOptions['mode']
  const args = stringOption(input, 'args') as DiffOptions['args']
  const ignore = ((input.options.ignore ?? []) as string[])
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '')
  return { ...(mode === undefined ? {} : { mode }), ...(args === undefined ? {} : { args }), ...(ignore.length === 0 ? {} : { ignore }) }
}

/** The run against its golden, both in golden normal form, as assertMatchesBaseline compares them. */
function againstGolden(ref: string, dir: string, options: DiffOptions): DiffOutput {
  const runFile = resolveRun(ref, dir)
  const run = loadTrace(runFile)
  const store = fileGoldenStore(dir)
  const goldenFile = store.resolvePath(run)
  const text = store.read(goldenFile)
  if (text === null) {
    throw new TraceNotFoundError(
      goldenFile,
      `"${run.name}" has no golden baseline yet: review the run, then ${shellCommand(['reagent-flow', 'approve', ...(dir === DEFAULT_TRACE_DIR ? [] : ['--dir', dir]), runFile])}.`,
      run.name,
    )
  }
  const { diff, variant, variants } = compareWithGolden({ path: goldenFile, text }, renderGolden(run).trace, resolveDiffOptions(options))
  return { expected: goldenFile, actual: runFile, ...(variants > 1 ? { variant: { index: variant, of: variants } } : {}), diff }
}

/** Two traces as they are, the first as expected. */
function betweenTraces(a: string, b: string, dir: string, options: DiffOptions): DiffOutput {
  const expectedFile = resolveRun(a, dir)
  const expected = loadTrace(expectedFile)
  const actualFile = resolveRun(b, dir)
  return { expected: expectedFile, actual: actualFile, diff: diffTraces(expected, loadTrace(actualFile), options) }
}

export const diffCommand: Command = {
  name: 'diff',
  args: '<name> [<b>]',
  summary: 'the latest run against its golden, or two traces (diff <a> <b>); exit code 1 when they differ',
  details: [
    "Compared: tool names, arguments, results and errors, text answers, and each call's model and",
    'system prompt, turn by turn (turns are aligned, so one inserted turn is one difference). Never',
    'compared: ids, times, token usage, the other messages, metadata. A golden with several accepted',
    'variants is compared with the closest. --ignore takes what diffTraces() does: "arguments",',
    '"results", "errors", "response_text", "model", "system_prompt", "<tool>.<arg>", or a JSON path',
    'such as "turns[*].tool_results[*].result.fetched_at".',
  ],
  options: {
    mode: { type: 'string', value: '<mode>', choices: MATCH_MODES, default: 'strict', description: 'how the tool calls must correspond' },
    args: { type: 'string', value: '<mode>', choices: ARGS_MODES, default: 'exact', description: 'how arguments are compared' },
    ignore: { type: 'string', multiple: true, value: '<what>', description: 'what not to compare (repeat it, or separate with commas)' },
  },
  positionals: { min: 1, max: 2, names: '<name> (a run with a golden), or two traces <a> <b>' },
  examples: [
    'reagent-flow diff refund-agent',
    'reagent-flow diff refund-agent --mode superset --args subset',
    'reagent-flow diff refund-agent --ignore results --ignore search.request_id',
    'reagent-flow diff .reagent/golden/refund-agent.trace.json other/refund-agent.trace.json',
  ],
  run(input, ctx) {
    const options = diffOptionsOf(input)
    const [a, b] = input.positionals as [string, string | undefined]
    const out = b === undefined ? againstGolden(a, ctx.dir, options) : betweenTraces(a, b, ctx.dir, options)
    const { diff } = out
    if (ctx.json) ctx.printJson(out)
    else {
      const { c } = ctx
      const variant = out.variant === undefined ? '' : ` (variant ${out.variant.index} of ${out.variant.of}, the closest)`
      ctx.print(
        `${c.red(`- expected  ${out.expected}${variant}`)}\n${c.green(`+ actual    ${out.actual}`)}\n\n${formatDiff(diff, { color: c.isColorSupported })}`,
      )
    }
    return diff.equal ? EXIT_OK : EXIT_CHECK_FAILED
  },
}
