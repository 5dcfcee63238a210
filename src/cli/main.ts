/**
 * The `reagent-flow` command: finds the command named by the first word,
 * parses the rest for it, runs it, and reports an error the user can fix as
 * one line and exit code 2, and a bug of ours with its stack and exit code
 * 70 (failure.ts).
 */
import { colors, shouldColor } from '../report/colors.js'
import { parseCommandLine } from './args.js'
import { EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, type CliIo, type Command, type CommandContext } from './command.js'
import { approveCommand } from './commands/approve.js'
import { ciCommentCommand } from './commands/ci-comment.js'
import { ciGateCommand } from './commands/ci-gate.js'
import { compareCommand } from './commands/compare.js'
import { ciMergeCommand } from './commands/ci-merge.js'
import { ciSummaryCommand } from './commands/ci-summary.js'
import { ciUploadCommand } from './commands/ci-upload.js'
import { ledgerPushCommand } from './commands/ledger-push.js'
import { demoCommand } from './commands/demo.js'
import { diffCommand } from './commands/diff.js'
import { exportCommand } from './commands/export.js'
import { getCommand } from './commands/get.js'
import { gradeCommand } from './commands/grade.js'
import { importCommand } from './commands/import.js'
import { ledgerPruneCommand } from './commands/ledger-prune.js'
import { listCommand } from './commands/list.js'
import { recordingsCommand } from './commands/recordings.js'
import { mcpCommand } from './commands/mcp.js'
import { reportCommand } from './commands/report.js'
import { scaffoldCommand } from './commands/scaffold.js'
import { serveCommand } from './commands/serve.js'
import { showCommand } from './commands/show.js'
import { statsCommand } from './commands/stats.js'
import { toolsDiffCommand } from './commands/tools-diff.js'
import { treeCommand } from './commands/tree.js'
import { validateCommand } from './commands/validate.js'
import { viewCommand } from './commands/view.js'
import { describeInternalError, isUserFixable, oneLineReason } from './failure.js'
import { commandHelp, globalHelp } from './help.js'
import { PACKAGE_VERSION } from '../base/package-version.js'

export { EXIT_INTERNAL, EXIT_USAGE } from './command.js'
export type { CliIo } from './command.js'

export const COMMANDS: readonly Command[] = [
  listCommand,
  showCommand,
  getCommand,
  diffCommand,
  approveCommand,
  toolsDiffCommand,
  gradeCommand,
  validateCommand,
  treeCommand,
  viewCommand,
  reportCommand,
  recordingsCommand,
  serveCommand,
  mcpCommand,
  exportCommand,
  importCommand,
  scaffoldCommand,
  ciMergeCommand,
  ciGateCommand,
  ciSummaryCommand,
  ciCommentCommand,
  ciUploadCommand,
  ledgerPushCommand,
  ledgerPruneCommand,
  compareCommand,
  statsCommand,
  demoCommand,
]

const defaultIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
}

function contextFor(command: Command, dir: string, json: boolean, io: CliIo): CommandContext {
  return {
    dir,
    json,
    c: colors(io.color ?? shouldColor()),
    write: io.stdout,
    print: (text) => io.stdout(`${text}\n`),
    printJson: (value) => io.stdout(`${JSON.stringify(value, null, 2)}\n`),
    note: (text) => io.stderr(`reagent-flow ${command.name}: ${text}\n`),
  }
}

/** Runs `reagent-flow ...argv` and returns its exit code. `commands` is the command table (tests pass their own). */
export async function main(argv: readonly string[], io: CliIo = defaultIo, commands: readonly Command[] = COMMANDS): Promise<number> {
  const [name, ...rest] = argv
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(globalHelp(commands))
    return EXIT_OK
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`reagent-flow ${PACKAGE_VERSION}\n`)
    return EXIT_OK
  }
  if (name === undefined) {
    io.stderr(globalHelp(commands))
    return EXIT_USAGE
  }
  // A command of two words (`ci merge`) is found by both.
  const twoWords = rest[0] === undefined ? undefined : commands.find((candidate) => candidate.name === `${name} ${rest[0]}`)
  const command = twoWords ?? commands.find((candidate) => candidate.name === name)
  const args = twoWords === undefined ? rest : rest.slice(1)
  if (command === undefined) {
    io.stderr(
      `reagent-flow: unknown command ${JSON.stringify(commands.some((c) => c.name.startsWith(`${name} `)) ? `${name} ${rest[0] ?? ''}`.trim() : name)}. Commands: ${commands.map((c) => c.name).join(', ')}. ` +
        `Run "reagent-flow --help" for details.\n`,
    )
    return EXIT_USAGE
  }
  try {
    const parsed = parseCommandLine(command, args)
    if (parsed.help) {
      io.stdout(commandHelp(command))
      return EXIT_OK
    }
    return await command.run(parsed.input, contextFor(command, parsed.dir, parsed.json, io))
  } catch (error) {
    if (!isUserFixable(error)) {
      io.stderr(describeInternalError(command.name, error))
      return EXIT_INTERNAL
    }
    // A ReagentError says what is wrong and how to fix it; a refusal of the file system (EACCES, EISDIR) is unreadable input too.
    io.stderr(`reagent-flow ${command.name}: ${oneLineReason(error)}\n`)
    return EXIT_USAGE
  }
}
