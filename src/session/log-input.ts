/**
 * Shape checks for what user code passes to `logLlmCall` and `logToolResult`.
 *
 * Values inside a call (arguments, results, messages) are never a reason to
 * throw: they are recorded, with stand-ins where JSON cannot hold them. The
 * shape of the call itself is: a missing or misspelt object would otherwise
 * be recorded as an empty turn, or dropped, without anyone noticing. So a
 * wrong shape is a TypeError that names the parameter and shows the form.
 */
import type { LlmCallInput, ToolCallInput, ToolResultInput } from './recorder.js'

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'string' ? `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)}` : typeof value
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  try {
    return value !== null && typeof value === 'object' && !Array.isArray(value)
  } catch {
    // Array.isArray throws on a revoked Proxy: nothing can be read from it.
    return false
  }
}

/** The call as the recorder takes it; `toolCalls` may be given as one object. */
export function checkLlmCall(call: unknown): LlmCallInput {
  if (!isPlainObject(call)) {
    throw new TypeError(`logLlmCall() takes an object such as { toolCalls: [{ name, arguments }], responseText, model }, got ${kindOf(call)}.`)
  }
  const toolCalls = readOrThrown(call, 'toolCalls')
  // A getter that throws is a value, not a shape: the recorder records it with a stand-in.
  if (toolCalls === undefined || toolCalls === null || toolCalls === THROWN) return call as LlmCallInput
  if (Array.isArray(toolCalls)) {
    for (let i = 0; i < toolCalls.length; i++) checkToolCall(toolCalls[i], i)
    return call as LlmCallInput
  }
  if (isPlainObject(toolCalls)) {
    checkToolCall(toolCalls, undefined)
    return { ...(call as LlmCallInput), toolCalls: [toolCalls as unknown as ToolCallInput] }
  }
  throw new TypeError(`logLlmCall(): toolCalls must be an array of { name, arguments, callId? }, got ${kindOf(toolCalls)}.`)
}

/** Marks a property whose getter threw. */
const THROWN: unique symbol = Symbol('thrown')

function readOrThrown(source: Record<string, unknown>, key: string): unknown {
  try {
    return source[key]
  } catch {
    return THROWN
  }
}

function checkToolCall(item: unknown, index: number | undefined): void {
  const name = isPlainObject(item) ? readOrThrown(item, 'name') : undefined
  if (name === THROWN) return
  if (!isPlainObject(item) || typeof name !== 'string' || name === '') {
    throw new TypeError(
      `logLlmCall(): ${index === undefined ? 'toolCalls' : `toolCalls[${index}]`} must be { name, arguments, callId? } with the tool name as a non-empty string, got ${isPlainObject(item) ? `name ${kindOf(name)}` : kindOf(item)}.`,
    )
  }
}

/** The tool name and result as the recorder takes them; a missing result object means "no result value". */
export function checkToolResult(name: unknown, result: unknown): ToolResultInput & { skipIfRecorded?: boolean; injected?: boolean } {
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(`logToolResult(name, { result }) needs the tool name as a non-empty string first, got ${kindOf(name)}.`)
  }
  if (result === undefined || result === null) return {}
  if (!isPlainObject(result)) {
    throw new TypeError(
      `logToolResult("${name}", ...) takes { result, error, callId, durationMs } as its second argument, got ${kindOf(result)}. ` +
        `Wrap the value: logToolResult("${name}", { result: value }).`,
    )
  }
  return result
}
