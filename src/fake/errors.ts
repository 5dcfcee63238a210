/**
 * The errors a scripted model raises on its own account. They reach the
 * agent's caller as themselves: the scripted models deliver them past the
 * SDKs' retry loops (see src/http/failing-response.ts).
 */
import { ReagentError, isReagentErrorNamed } from '../errors/reagent-error.js'
import type { ScriptRequest } from './types.js'

const PREVIEW_LENGTH = 80

/** A model call came after the script's last step. */
export class ScriptExhaustedError extends ReagentError {
  override name = 'ScriptExhaustedError' as const
  /** The scripted model: `scriptedFetch`, `scriptedLanguageModel "scripted-model"`, ... */
  readonly model: string
  /** The call that found no step, from 1. */
  readonly callNumber: number
  /** How many steps the script has. */
  readonly steps: number
  /** What was called: `POST /v1/chat/completions, model "gpt-4o"`, `doStream`, ... */
  readonly target: string
  /** The call the script had no step for. */
  readonly request: ScriptRequest

  constructor(model: string, request: ScriptRequest, steps: number, target: string) {
    super(
      `${model} has no step for call #${request.call} (${target}): the script has ${steps} step${steps === 1 ? '' : 's'}.` +
        `${lastMessageSentence(request)} Add a step for this call to the script, or find out why the agent made it.`,
    )
    this.model = model
    this.callNumber = request.call
    this.steps = steps
    this.target = target
    this.request = request
  }
}

/** A scripted tool was called more often than its script has answers. */
export class ToolScriptExhaustedError extends ReagentError {
  override name = 'ToolScriptExhaustedError' as const
  /** The tool. */
  readonly tool: string
  /** The call that found no answer, from 1. */
  readonly callNumber: number

  constructor(tool: string, callNumber: number, answers: number) {
    super(
      `scriptedTools: tool "${tool}" has no answer for call #${callNumber}: its script has ${answers} answer${answers === 1 ? '' : 's'}. ` +
        'Add an answer for this call, or find out why the agent called the tool again.',
    )
    this.tool = tool
    this.callNumber = callNumber
  }
}

/** `scriptedFetch` was asked for something it does not speak. */
export class UnsupportedRequestError extends ReagentError {
  override name = 'UnsupportedRequestError' as const
  readonly method: string
  readonly url: string

  constructor(method: string, url: string, reason: string) {
    super(
      `scriptedFetch cannot answer ${method} ${url}: ${reason}. It answers POST requests to .../chat/completions and ` +
        `.../responses (OpenAI) and .../messages (Anthropic), with a JSON body; give other requests a fetch of their own.`,
    )
    this.method = method
    this.url = url
  }
}

/**
 * True for a `ScriptExhaustedError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isScriptExhaustedError(value: unknown): value is ScriptExhaustedError {
  return isReagentErrorNamed(value, 'ScriptExhaustedError')
}

/**
 * True for an `UnsupportedRequestError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isUnsupportedRequestError(value: unknown): value is UnsupportedRequestError {
  return isReagentErrorNamed(value, 'UnsupportedRequestError')
}

/** ` The call's last message was tool: {"temperature":18}.`, or nothing for a call without messages. */
function lastMessageSentence(request: ScriptRequest): string {
  const last = request.messages.at(-1)
  if (last === undefined) return ''
  const content = last.content.length > PREVIEW_LENGTH ? `${last.content.slice(0, PREVIEW_LENGTH)}…` : last.content
  return ` The call's last message was ${last.role}: ${content === '' ? '(empty)' : content}.`
}

/**
 * True for a `ToolScriptExhaustedError`, also one thrown by another copy of reagent-flow or in another realm
 * (checked by `name` and the `ReagentError` brand, not `instanceof`).
 */
export function isToolScriptExhaustedError(value: unknown): value is ToolScriptExhaustedError {
  return isReagentErrorNamed(value, 'ToolScriptExhaustedError')
}
