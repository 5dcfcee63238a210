/**
 * The `reagent-flow` command: parses the command name and hands over to it.
 * Exit codes: 0 ok, 1 a check failed, 2 bad usage or unreadable input.
 */
import { runDemo } from './demo/run-demo.js'

export const EXIT_OK = 0
export const EXIT_CHECK_FAILED = 1
export const EXIT_USAGE = 2

const HELP = `Usage: reagent-flow <command> [options]

Commands:
  demo          record a scripted example agent, assert on it, compare it with a golden

Options:
  --help        show this help

Examples:
  npx reagent-flow demo
`

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

const defaultIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
}

export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(HELP)
    return command === undefined ? EXIT_USAGE : EXIT_OK
  }
  if (command === 'demo') {
    if (rest.includes('--help')) {
      io.stdout('Usage: reagent-flow demo [--dir <traceDir>]\n\nRecords a scripted refund agent (no API key, no network), prints its trace, asserts on it\nand compares it with a golden baseline (<traceDir>/golden/demo-refund-agent.trace.json).\n')
      return EXIT_OK
    }
    const dirAt = rest.indexOf('--dir')
    const traceDir = dirAt >= 0 ? rest[dirAt + 1] : undefined
    return runDemo({ ...(traceDir === undefined ? {} : { traceDir }), write: io.stdout })
  }
  io.stderr(`reagent-flow: unknown command "${command}". Run "reagent-flow --help" for the list of commands.\n`)
  return EXIT_USAGE
}
