/**
 * The `reagent-flow` command: finds the command named by the first word,
 * parses the rest for it, runs it, and turns any error into a one-line
 * reason on stderr and exit code 2.
 */
import { colors, shouldColor } from '../report/colors.js'
import { parseCommandLine } from './args.js'
import { EXIT_OK, EXIT_USAGE, type CliIo, type Command, type CommandContext } from './command.js'
import { approveCommand } from './commands/approve.js'
import { demoCommand } from './commands/demo.js'
import { diffCommand } from './commands/diff.js'
import { exportCommand } from './commands/export.js'
import { getCommand } from './commands/get.js'
import { gradeCommand } from './commands/grade.js'
import { importCommand } from './commands/import.js'
import { listCommand } from './commands/list.js'
import { recordingsCommand } from './commands/recordings.js'
import { mcpCommand } from './commands/mcp.js'
import { reportCommand } from './commands/report.js'
import { serveCommand } from './commands/serve.js'
import { showCommand } from './commands/show.js'
import { treeCommand } from './commands/tree.js'
import { validateCommand } from './commands/validate.js'
import { viewCommand } from './commands/view.js'
import { commandHelp, globalHelp } from './help.js'

export { EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE } from './command.js'
export type { CliIo } from './command.js'

export const COMMANDS: readonly Command[] = [
  listCommand,
  showCommand,
  getCommand,
  diffCommand,
  approveCommand,
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
  demoCommand,
]

const defaultIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
}

/** An error as one line: the message without its line breaks. */
function oneLineReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/\s*\n\s*/g, ' ').trim()
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

export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(globalHelp(COMMANDS))
    return EXIT_OK
  }
  if (name === undefined) {
    io.stderr(globalHelp(COMMANDS))
    return EXIT_USAGE
  }
  const command = COMMANDS.find((candidate) => candidate.name === name)
  if (command === undefined) {
    io.stderr(
      `reagent-flow: unknown command ${JSON.stringify(name)}. Commands: ${COMMANDS.map((c) => c.name).join(', ')}. ` +
        `Run "reagent-flow --help" for details.\n`,
    )
    return EXIT_USAGE
  }
  try {
    const parsed = parseCommandLine(command, rest)
    if (parsed.help) {
      io.stdout(commandHelp(command))
      return EXIT_OK
    }
    return await command.run(parsed.input, contextFor(command, parsed.dir, parsed.json, io))
  } catch (error) {
    // A ReagentError says what is wrong and how to fix it; anything else
    // (EACCES, EISDIR) is unreadable input too, told the same way.
    io.stderr(`reagent-flow ${command.name}: ${oneLineReason(error)}\n`)
    return EXIT_USAGE
  }
}
