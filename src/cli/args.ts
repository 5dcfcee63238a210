/**
 * The argument parser: `node:util` parseArgs in strict mode, with every
 * mistake turned into a one-line `UsageError` that names the option and the
 * valid ones (parseArgs' own messages suggest `--` tricks instead).
 */
import { parseArgs } from 'node:util'
import { UsageError } from '../errors/index.js'
import { DEFAULT_TRACE_DIR } from '../storage/index.js'
import type { Command, CommandInput, OptionSpec } from './command.js'

/** The options every command takes. */
export const COMMON_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  dir: { type: 'string', value: '<path>', default: DEFAULT_TRACE_DIR, description: 'the trace directory' },
  json: { type: 'boolean', description: 'machine-readable output on stdout' },
  help: { type: 'boolean', description: 'how to use the command' },
}

export interface ParsedCommandLine {
  input: CommandInput
  dir: string
  json: boolean
  help: boolean
}

/** Every option `command` takes: its own, then the common ones (a command may say what a common one means for it: `demo`'s --dir). */
export function optionSpecs(command: Command): Readonly<Record<string, OptionSpec>> {
  const own = Object.entries(command.options).filter(([name]) => !Object.hasOwn(COMMON_OPTIONS, name))
  const common = Object.entries(COMMON_OPTIONS).map(([name, spec]) => [name, command.options[name] ?? spec] as const)
  return Object.fromEntries([...own, ...common])
}

function optionNames(command: Command): string {
  return Object.keys(optionSpecs(command))
    .map((name) => `--${name}`)
    .join(', ')
}

export function usageLine(command: Command): string {
  return `reagent-flow ${command.name}${command.args === '' ? '' : ` ${command.args}`} [options]`
}

/** parseArgs' error, in one line that names the option and what would be valid. */
function explain(error: Error & { code?: string }, command: Command): string {
  const flag = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1] ?? ''
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag}. Valid options: ${optionNames(command)}`
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const spec = optionSpecs(command)[flag.replace(/^-+/, '')]
      if (spec?.type === 'boolean') return `option ${flag} takes no value`
      return `option ${flag} needs a value: ${flag} ${spec?.value ?? '<value>'} (a value starting with "-" is written ${flag}=-value)`
    }
    default:
      return error.message.split('\n')[0] ?? String(error)
  }
}

function checkChoices(options: Record<string, unknown>, specs: Readonly<Record<string, OptionSpec>>): void {
  for (const [name, spec] of Object.entries(specs)) {
    const value = options[name]
    if (spec.choices === undefined || value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!spec.choices.includes(String(item))) {
        throw new UsageError(`--${name} must be one of ${spec.choices.join(', ')}; got ${JSON.stringify(item)}`)
      }
    }
  }
}

/** Parses `argv` (the words after the command name) for `command`. Throws `UsageError`. */
export function parseCommandLine(command: Command, argv: readonly string[]): ParsedCommandLine {
  const specs = optionSpecs(command)
  const config = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, { type: spec.type, ...(spec.multiple === true ? { multiple: true } : {}) }]),
  )
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options: config, strict: true, allowPositionals: true })
  } catch (error) {
    throw new UsageError(explain(error as Error & { code?: string }, command))
  }
  const options = parsed.values as Record<string, string | boolean | string[] | undefined>
  const help = options.help === true
  if (!help) {
    checkChoices(options, specs)
    const { min, max, names } = command.positionals
    if (parsed.positionals.length < min) throw new UsageError(`missing ${names}. Usage: ${usageLine(command)}`)
    if (parsed.positionals.length > max) {
      throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[max])}. Usage: ${usageLine(command)}`)
    }
  }
  const dir = typeof options.dir === 'string' && options.dir !== '' ? options.dir : DEFAULT_TRACE_DIR
  return { input: { positionals: parsed.positionals, options }, dir, json: options.json === true, help }
}

/** An integer option within bounds, or its default. Throws `UsageError` naming the option. */
export function intOption(input: CommandInput, name: string, fallback: number, min: number, max: number): number {
  const raw = input.options[name]
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || value < min || value > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}; got ${JSON.stringify(raw)}`)
  }
  return value
}

/** A string option, or undefined. */
export function stringOption(input: CommandInput, name: string): string | undefined {
  const value = input.options[name]
  return typeof value === 'string' ? value : undefined
}

/** `0.9` or `90%` as a share (NaN for anything else): the one reading of the options that take a share. */
export function parseShare(raw: unknown): number {
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(String(raw).trim())
  return match === null ? Number.NaN : Number(match[1]) / (match[2] === '%' ? 100 : 1)
}
