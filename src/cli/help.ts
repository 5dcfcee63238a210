/** The help texts: the command list, and each command's options and examples. */
import { COMMON_OPTIONS, optionSpecs, usageLine } from './args.js'
import type { Command, OptionSpec } from './command.js'

const EXIT_CODES =
  'Exit codes: 0 ok, 1 a check failed, 2 bad usage or unreadable input (the reason is one line on stderr), ' +
  '70 an internal error (a bug in reagent-flow: its stack is on stderr; please report it).'

function optionLines(options: Readonly<Record<string, OptionSpec>>): string[] {
  const rows = Object.entries(options).map(([name, spec]) => {
    const value = spec.type === 'string' ? ` ${spec.value ?? '<value>'}` : ''
    const choices = spec.choices === undefined ? '' : `: ${spec.choices.join(' | ')}`
    const fallback = spec.default === undefined ? '' : ` (default: ${spec.default})`
    return [`--${name}${value}`, `${spec.description}${choices}${fallback}`] as const
  })
  const width = Math.max(...rows.map(([flag]) => flag.length))
  return rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`)
}

/** `reagent-flow <command> --help` */
export function commandHelp(command: Command): string {
  return [
    `Usage: ${usageLine(command)}`,
    '',
    `${command.summary.replace(/^./, (first) => first.toUpperCase())}.`,
    ...(command.details === undefined ? [] : ['', ...command.details]),
    '',
    'Options:',
    ...optionLines(optionSpecs(command)),
    '',
    EXIT_CODES,
    '',
    'Examples:',
    ...command.examples.map((example) => `  ${example}`),
    '',
  ].join('\n')
}

/** `reagent-flow --help` */
export function globalHelp(commands: readonly Command[]): string {
  const rows = commands.map((command) => [`${command.name}${command.args === '' ? '' : ` ${command.args}`}`, command.summary] as const)
  const width = Math.max(...rows.map(([usage]) => usage.length))
  return [
    'Usage: reagent-flow <command> [options]',
    '       reagent-flow --version',
    '',
    'Look at recorded agent runs and their golden baselines, in the terminal and in CI.',
    '',
    'Commands:',
    ...rows.map(([usage, summary]) => `  ${usage.padEnd(width)}  ${summary}`),
    '',
    '<run> is a trace name, the path of a trace file, or a trace_id.',
    '',
    'Options of every command:',
    ...optionLines(COMMON_OPTIONS),
    '',
    EXIT_CODES,
    'Colour is off when NO_COLOR is set or stdout is not a terminal.',
    '',
    'Examples:',
    '  npx reagent-flow list --status failed',
    '  npx reagent-flow show refund-agent',
    '  npx reagent-flow diff refund-agent --mode superset',
    '  npx reagent-flow approve --all',
    '  npx reagent-flow <command> --help',
    '',
  ].join('\n')
}
