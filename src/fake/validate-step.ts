/**
 * Checks that a step is one of the script's shapes, so a typo (`txt`, `args`)
 * fails where it was written, with the step's number, instead of turning into
 * an empty answer three calls later.
 */
const STEP_SHAPES = '{ text }, { toolCalls: [{ name, arguments }] }, { error: { status, message } }, or a function returning one'
const ANSWER_KEYS = new Set(['text', 'toolCalls', 'usage'])
const TOOL_CALL_KEYS = new Set(['name', 'arguments', 'id'])
const ERROR_KEYS = new Set(['status', 'message', 'type', 'code'])
const USAGE_KEYS = new Set(['inputTokens', 'outputTokens'])

/** The problem with `value` as a step, or undefined when it is a valid answer or error step. */
export function stepProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return `it is ${describe(value)}`
  if ('error' in value)
    return Object.keys(value).length > 1 ? `an error step has only the key "error", and this one has ${keyList(value)}` : errorProblem(value.error)
  const unknown = Object.keys(value).find((key) => !ANSWER_KEYS.has(key))
  if (unknown !== undefined) return `it has the key "${unknown}", which is not one of text, toolCalls, usage, error`
  if (!('text' in value) && !('toolCalls' in value)) return 'it has neither text nor toolCalls'
  if ('text' in value && typeof value.text !== 'string') return `its text is ${describe(value.text)}, not a string`
  if ('toolCalls' in value) {
    const problem = toolCallsProblem(value.toolCalls)
    if (problem !== undefined) return problem
  }
  return 'usage' in value ? usageProblem(value.usage) : undefined
}

/** The TypeError for a step that is not one. */
export function invalidStepError(owner: string, stepNumber: number, problem: string, returnedByFunction: boolean): TypeError {
  const what = returnedByFunction
    ? `the function at step ${stepNumber} of the script returned something that is not a step`
    : `step ${stepNumber} of the script is not a step`
  return new TypeError(`${owner}: ${what}: ${problem}. A step is ${STEP_SHAPES}.`)
}

function errorProblem(error: unknown): string | undefined {
  if (!isRecord(error)) return `its error is ${describe(error)}, not { status, message }`
  const unknown = Object.keys(error).find((key) => !ERROR_KEYS.has(key))
  if (unknown !== undefined) return `its error has the key "${unknown}", which is not one of status, message, type, code`
  if (!Number.isInteger(error.status) || (error.status as number) < 400 || (error.status as number) > 599) {
    return `its error.status is ${describe(error.status)}, not an HTTP error status (an integer from 400 to 599)`
  }
  if (typeof error.message !== 'string') return `its error.message is ${describe(error.message)}, not a string`
  for (const key of ['type', 'code'] as const) {
    if (key in error && typeof error[key] !== 'string') return `its error.${key} is ${describe(error[key])}, not a string`
  }
  return undefined
}

function toolCallsProblem(toolCalls: unknown): string | undefined {
  if (!Array.isArray(toolCalls)) return `its toolCalls is ${describe(toolCalls)}, not an array`
  for (const [i, call] of toolCalls.entries()) {
    if (!isRecord(call)) return `its toolCalls[${i}] is ${describe(call)}, not { name, arguments }`
    const unknown = Object.keys(call).find((key) => !TOOL_CALL_KEYS.has(key))
    if (unknown !== undefined) return `its toolCalls[${i}] has the key "${unknown}", which is not one of name, arguments, id`
    if (typeof call.name !== 'string' || call.name === '') return `its toolCalls[${i}].name is ${describe(call.name)}, not a tool name`
    if ('arguments' in call && !isRecord(call.arguments)) return `its toolCalls[${i}].arguments is ${describe(call.arguments)}, not an object`
    if ('id' in call && (typeof call.id !== 'string' || call.id === '')) return `its toolCalls[${i}].id is ${describe(call.id)}, not a call id`
  }
  return undefined
}

function usageProblem(usage: unknown): string | undefined {
  if (!isRecord(usage)) return `its usage is ${describe(usage)}, not { inputTokens, outputTokens }`
  for (const [key, count] of Object.entries(usage)) {
    if (!USAGE_KEYS.has(key)) return `its usage has the key "${key}", which is not one of inputTokens, outputTokens`
    if (!Number.isInteger(count) || (count as number) < 0) return `its usage.${key} is ${describe(count)}, not a whole number of tokens`
  }
  return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function keyList(value: Record<string, unknown>): string {
  return Object.keys(value)
    .map((key) => `"${key}"`)
    .join(', ')
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
