/** `reagent-flow validate [paths...]`: checks trace files against the trace format. */
import { join } from 'node:path'
import { TraceFormatError, TraceNotFoundError } from '../../errors/index.js'
import { plural } from '../../report/format-value.js'
import { isFile, listTraceFiles, readRun, sweepTraceDirectory, unreadableReason } from '../../storage/index.js'
import { EXIT_CHECK_FAILED, EXIT_OK, type Command } from '../command.js'

/** A file that failed the check: where in it (JSON path, `""` for the top level) and which rule. */
export interface InvalidFile {
  file: string
  path: string
  rule: string
  message: string
}

/** `validate --json` */
export interface ValidateOutput {
  checked: number
  valid: number
  invalid: InvalidFile[]
}

/** The trace files of a directory: its runs (runs whose process died written out first) and its golden baselines. */
function filesUnder(dir: string): string[] | null {
  sweepTraceDirectory(dir)
  const runs = listTraceFiles(dir)
  return runs === null ? null : [...runs, ...(listTraceFiles(join(dir, 'golden')) ?? [])]
}

function filesToCheck(paths: readonly string[], dir: string): string[] {
  if (paths.length === 0) {
    const files = filesUnder(dir)
    if (files === null) throw new TraceNotFoundError(dir, 'Pass --dir with your trace directory, or the files to check.')
    return files
  }
  return paths.flatMap((path) => {
    if (isFile(path)) return [path]
    const files = filesUnder(path)
    if (files === null) throw new TraceNotFoundError(path, 'Pass trace files, or directories of them.')
    return files
  })
}

/** What is wrong with `file`, for --json and in words; undefined when it is a valid trace. */
function check(file: string): { invalid: InvalidFile; reason: string } | undefined {
  try {
    readRun(file)
    return undefined
  } catch (error) {
    const reason = unreadableReason(error)
    if (error instanceof TraceFormatError) return { invalid: { file, path: error.jsonPath, rule: error.rule, message: error.detail }, reason }
    return { invalid: { file, path: '', rule: 'read', message: reason }, reason }
  }
}

export const validateCommand: Command = {
  name: 'validate',
  args: '[paths...]',
  summary: "check trace files against the trace format (default: the directory's runs and goldens)",
  details: ['Each bad file is printed on one line with the JSON path and the rule it breaks; exit code 1 if any is bad.'],
  options: {},
  positionals: { min: 0, max: Number.POSITIVE_INFINITY, names: 'paths' },
  examples: ['reagent-flow validate', 'reagent-flow validate fixtures/traces --json', 'reagent-flow validate .reagent/refund-agent.trace.json'],
  run(input, ctx) {
    const files = filesToCheck(input.positionals, ctx.dir)
    const bad = files.map(check).filter((item) => item !== undefined)
    const invalid = bad.map((item) => item.invalid)
    const out: ValidateOutput = { checked: files.length, valid: files.length - invalid.length, invalid }
    if (ctx.json) ctx.printJson(out)
    else {
      const { c } = ctx
      for (const { invalid: file, reason } of bad) ctx.print(`${c.red('✗')} ${file.file}: ${reason}`)
      const summary = `${plural(out.checked, 'file')} checked: ${out.valid} valid, ${invalid.length} invalid`
      ctx.print(invalid.length === 0 ? c.green(`✓ ${summary}`) : c.red(summary))
    }
    return invalid.length === 0 ? EXIT_OK : EXIT_CHECK_FAILED
  },
}
