/** An age option (`--older-than 90d`, `--retention 12w`): a count of hours, days or weeks, as run.prune and run.stats take it. */
import { UsageError } from '../errors/index.js'
import { stringOption } from './args.js'
import type { CommandInput } from './command.js'

const AGE = /^[1-9][0-9]{0,5}[hdw]$/

/** The option's value, checked; undefined when it is not given. Throws `UsageError` naming the option. */
export function ageOption(input: CommandInput, name: string): string | undefined {
  const value = stringOption(input, name)
  if (value === undefined) return undefined
  if (!AGE.test(value)) throw new UsageError(`--${name} must be a count of hours, days or weeks (36h, 90d, 12w); got ${JSON.stringify(value)}`)
  return value
}
