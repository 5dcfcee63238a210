/**
 * Checks the options of `diffTraces()` once and turns them into the form the
 * comparison reads: a match mode, an argument rule per tool, and ignore rules.
 * A bad value is a TypeError (wrong type) or RangeError (unknown value) that
 * names the option and lists the valid values.
 */
import type { ArgsMatcher, ArgsMode, DiffOptions, MatchMode } from './types.js'
import { parsePathPattern, type PatternSegment } from './json-path.js'

export const MATCH_MODES: readonly MatchMode[] = ['strict', 'unordered', 'subset', 'superset']
export const ARGS_MODES: readonly ArgsMode[] = ['exact', 'subset', 'superset', 'ignore']
export const DIFF_OPTION_NAMES: readonly string[] = ['mode', 'args', 'ignore']
const IGNORE_NAMES = ['arguments', 'results', 'errors', 'response_text', 'model', 'system_prompt'] as const

export type ArgsRule = { kind: ArgsMode } | { kind: 'keys'; keys: readonly string[][] } | { kind: 'function'; matches: ArgsMatcher }

export interface IgnoreRules {
  arguments: boolean
  /** Results and errors (as reagent-flow 0.5 does). */
  results: boolean
  errors: boolean
  responseText: boolean
  /** The model name of each call. */
  model: boolean
  /** The system prompt (system and developer messages) of each call. */
  systemPrompt: boolean
  /** Per tool, argument paths not to compare. */
  toolArgs: ReadonlyMap<string, readonly string[][]>
  /** JSON path patterns into the trace. */
  paths: readonly PatternSegment[][]
}

export interface ResolvedDiffOptions {
  mode: MatchMode
  argsRule: (tool: string) => ArgsRule
  ignore: IgnoreRules
}

const list = (values: readonly string[]): string => values.map((v) => `"${v}"`).join(', ')

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return 'an array'
  return value === null ? 'null' : typeof value
}

function checkArgsMode(value: unknown, option: string, caller: string): ArgsMode {
  if (typeof value !== 'string') throw new TypeError(`${caller} option "${option}" must be one of ${list(ARGS_MODES)}; got ${describe(value)}.`)
  if (!(ARGS_MODES as readonly string[]).includes(value)) {
    throw new RangeError(`${caller} option "${option}" must be one of ${list(ARGS_MODES)}; got ${describe(value)}.`)
  }
  return value as ArgsMode
}

function toolRule(tool: string, rule: unknown, caller: string): ArgsRule {
  const option = `args.tools.${tool}`
  if (typeof rule === 'function') return { kind: 'function', matches: rule as ArgsMatcher }
  if (Array.isArray(rule)) {
    if (!rule.every((key): key is string => typeof key === 'string' && key !== '')) {
      throw new TypeError(`${caller} option "${option}" must list argument keys as non-empty strings.`)
    }
    return { kind: 'keys', keys: rule.map((key) => key.split('.')) }
  }
  if (typeof rule === 'string') return { kind: checkArgsMode(rule, option, caller) }
  throw new TypeError(
    `${caller} option "${option}" must be one of ${list(ARGS_MODES)}, a list of argument keys, or a function (actual, expected) => boolean; got ${describe(rule)}.`,
  )
}

function resolveArgs(args: unknown, caller: string): (tool: string) => ArgsRule {
  if (args === undefined) return () => ({ kind: 'exact' })
  if (typeof args === 'string') {
    const rule: ArgsRule = { kind: checkArgsMode(args, 'args', caller) }
    return () => rule
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new TypeError(`${caller} option "args" must be one of ${list(ARGS_MODES)} or { default, tools }; got ${describe(args)}.`)
  }
  for (const key of Object.keys(args)) {
    if (key !== 'default' && key !== 'tools') throw new TypeError(`${caller} option "args" has an unknown key "${key}". Valid keys: "default", "tools".`)
  }
  const { default: fallback, tools } = args as { default?: unknown; tools?: unknown }
  const defaultRule: ArgsRule = { kind: fallback === undefined ? 'exact' : checkArgsMode(fallback, 'args.default', caller) }
  if (tools === undefined) return () => defaultRule
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new TypeError(`${caller} option "args.tools" must be an object of rules by tool name; got ${describe(tools)}.`)
  }
  const rules = new Map(Object.entries(tools).map(([tool, rule]) => [tool, toolRule(tool, rule, caller)] as const))
  return (tool) => rules.get(tool) ?? defaultRule
}

function resolveIgnore(ignore: unknown, caller: string): IgnoreRules {
  const rules = { arguments: false, results: false, errors: false, responseText: false, model: false, systemPrompt: false }
  const toolArgs = new Map<string, string[][]>()
  const paths: PatternSegment[][] = []
  if (ignore === undefined) return { ...rules, toolArgs, paths }
  if (!Array.isArray(ignore)) throw new TypeError(`${caller} option "ignore" must be an array of strings; got ${describe(ignore)}.`)
  for (const entry of ignore as unknown[]) {
    if (typeof entry !== 'string') throw new TypeError(`${caller} option "ignore" must hold strings only; got ${describe(entry)}.`)
    if (entry === 'arguments') rules.arguments = true
    else if (entry === 'results') rules.results = true
    else if (entry === 'errors') rules.errors = true
    else if (entry === 'response_text') rules.responseText = true
    else if (entry === 'model') rules.model = true
    else if (entry === 'system_prompt') rules.systemPrompt = true
    else if (entry.startsWith('turns[') || entry.startsWith('turns.')) {
      const pattern = parsePathPattern(entry)
      if (pattern === undefined) {
        throw new RangeError(
          `${caller} option "ignore": ${JSON.stringify(entry)} is not a JSON path. Write it like "turns[*].tool_results[0].result.id" ([*] matches any index).`,
        )
      }
      paths.push(pattern)
    } else if (/^[^.]+\.[^.]+(\.[^.]+)*$/.test(entry)) {
      const [tool, ...arg] = entry.split('.')
      const known = toolArgs.get(tool!) ?? []
      known.push(arg)
      toolArgs.set(tool!, known)
    } else {
      throw new RangeError(
        `${caller} option "ignore": ${JSON.stringify(entry)} is not something to ignore. ` +
          `Valid entries: ${list(IGNORE_NAMES)}, "tool.arg" (an argument of one tool), or a JSON path starting with "turns[".`,
      )
    }
  }
  return { ...rules, toolArgs, paths }
}

/** Checks `options` and resolves them; `caller` names the function in error messages. */
export function resolveDiffOptions(options: unknown, caller = 'diffTraces()', extraOptionNames: readonly string[] = []): ResolvedDiffOptions {
  if (options === undefined) options = {}
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${caller} options must be an object; got ${describe(options)}.`)
  }
  const valid = [...DIFF_OPTION_NAMES, ...extraOptionNames]
  for (const key of Object.keys(options)) {
    if (!valid.includes(key)) throw new TypeError(`Unknown ${caller} option "${key}". Valid options: ${valid.join(', ')}.`)
  }
  const { mode = 'strict', args, ignore } = options as DiffOptions
  if (!(MATCH_MODES as readonly unknown[]).includes(mode)) {
    const error = typeof mode === 'string' ? RangeError : TypeError
    throw new error(`${caller} option "mode" must be one of ${list(MATCH_MODES)}; got ${describe(mode)}.`)
  }
  return { mode, argsRule: resolveArgs(args, caller), ignore: resolveIgnore(ignore, caller) }
}
