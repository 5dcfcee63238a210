/**
 * What a `reagent-flow` command is: its name, arguments, options and help,
 * and the function that runs it. Each command lives in its own file under
 * `commands/` and exports one `Command`; main.ts dispatches to them.
 */
import type { Colors } from '../report/colors.js'

/** Exit codes, the same for every command. */
export const EXIT_OK = 0
/** A check failed: a diff found differences, validate found bad files, a run went over a budget. */
export const EXIT_CHECK_FAILED = 1
/** Bad usage or unreadable input; the reason is one line on stderr. */
export const EXIT_USAGE = 2
/**
 * A bug in reagent-flow, not in what it was given: the error and its stack
 * on stderr. 70 is EX_SOFTWARE ("internal software error") of sysexits.h.
 */
export const EXIT_INTERNAL = 70

export interface OptionSpec {
  type: 'string' | 'boolean'
  /** The option may be given several times (`--ignore a --ignore b`). */
  multiple?: boolean
  /** The value's placeholder in help (`<text>`). */
  value?: string
  /** The valid values; anything else is a usage error naming them. */
  choices?: readonly string[]
  /** The default, for help. */
  default?: string
  description: string
}

/** What a command receives: its positional arguments and option values, checked. */
export interface CommandInput {
  positionals: string[]
  options: Record<string, string | boolean | string[] | undefined>
}

/** Where output goes. Tests pass their own; the bin writes to the process streams. */
export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Colour the output. Default: when stdout is a terminal and NO_COLOR is unset. */
  color?: boolean
}

/** The common options and the output of one command run. */
export interface CommandContext {
  /** The trace directory (`--dir`, default `.reagent`). */
  dir: string
  /** `--json`: machine-readable output. */
  json: boolean
  c: Colors
  /** Writes `text` to stdout as it is. */
  write: (text: string) => void
  /** Writes `text` and a newline to stdout. */
  print: (text: string) => void
  /** Writes `value` as JSON (2-space indent) to stdout. */
  printJson: (value: unknown) => void
  /** Writes a one-line note to stderr, prefixed with the command name. */
  note: (text: string) => void
}

export interface Command {
  name: string
  /** The arguments in the usage line: `<run>`, `[paths...]`. */
  args: string
  /** One line for the command list. */
  summary: string
  /** More lines for the command's own help (what it prints, exit codes), optional. */
  details?: readonly string[]
  /** Options besides --dir, --json and --help. */
  options: Readonly<Record<string, OptionSpec>>
  positionals: { min: number; max: number; names: string }
  examples: readonly string[]
  run: (input: CommandInput, ctx: CommandContext) => number | Promise<number>
}
