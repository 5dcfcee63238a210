/**
 * One model call as the trace records it, gathered from a `doGenerate`
 * result or, part by part, from a `doStream` stream, then logged as one turn.
 */
import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider'
import { epochSeconds, openCall, type Session, type ToolOutcome } from '../../src/adapter-support.js'
import { releaseHeldResults } from './held-results.js'
import { outcomeOf, promptMessages } from './prompt.js'
import { recordSafelyAiSdk } from './record.js'

interface ProviderToolResult {
  name: string
  callId: string
  outcome: ToolOutcome
}

type Detail = Record<string, number | undefined>

function compact(detail: Detail): Record<string, number> | undefined {
  const entries = Object.entries(detail).filter((entry): entry is [string, number] => typeof entry[1] === 'number')
  return entries.length === 0 ? undefined : Object.fromEntries(entries)
}

/**
 * V3 usage (`inputTokens: { total, noCache, cacheRead, cacheWrite }`,
 * `outputTokens: { total, text, reasoning }`) as `input_tokens`,
 * `output_tokens`, `total_tokens` and the details, named as the OpenAI
 * Responses API names them. Counts the provider did not report are left out.
 */
export function tokenUsageOf(usage: LanguageModelV3Usage | undefined): Record<string, unknown> | null {
  if (usage === undefined || usage === null) return null
  const input = usage.inputTokens ?? {}
  const output = usage.outputTokens ?? {}
  const out: Record<string, unknown> = {}
  if (typeof input.total === 'number') out.input_tokens = input.total
  if (typeof output.total === 'number') out.output_tokens = output.total
  if (typeof input.total === 'number' && typeof output.total === 'number') out.total_tokens = input.total + output.total
  const inputDetails = compact({ no_cache_tokens: input.noCache, cache_read_tokens: input.cacheRead, cache_write_tokens: input.cacheWrite })
  const outputDetails = compact({ text_tokens: output.text, reasoning_tokens: output.reasoning })
  if (inputDetails !== undefined) out.input_tokens_details = inputDetails
  if (outputDetails !== undefined) out.output_tokens_details = outputDetails
  return Object.keys(out).length === 0 ? null : out
}

export class ModelCall {
  /** When the call started, on the recorder's clock. */
  readonly timestamp = epochSeconds()
  readonly #started = performance.now()
  readonly #session: Session
  readonly #prompt: LanguageModelV3Prompt
  #modelId: string
  #text = ''
  readonly #toolCalls: Array<{ name: string; arguments: unknown; callId: string }> = []
  readonly #providerResults: ProviderToolResult[] = []
  #usage: LanguageModelV3Usage | undefined
  #finishReason: LanguageModelV3FinishReason | undefined
  #error: unknown
  #logged = false
  /** Leaves the session's open calls (which cut it short when the session closes first). */
  readonly #close: () => void

  constructor(s: Session, prompt: LanguageModelV3Prompt, modelId: string) {
    this.#session = s
    this.#prompt = prompt
    this.#modelId = modelId
    this.#close = openCall(s, (reason) => {
      this.fail(reason)
      this.log()
    })
  }

  /** True once the call is in the trace (it is logged once). */
  get logged(): boolean {
    return this.#logged
  }

  /** Takes in one content part (`doGenerate`) or stream part (`doStream`). */
  observe(part: LanguageModelV3Content | LanguageModelV3StreamPart): void {
    switch (part.type) {
      case 'text':
        this.#text += part.text
        break
      case 'text-delta':
        this.#text += part.delta
        break
      case 'tool-call':
        // V3 sends the input as JSON text; the recorder parses it (and keeps text that is not JSON).
        this.#toolCalls.push({ name: part.toolName, arguments: part.input, callId: part.toolCallId })
        break
      case 'tool-result':
        if (part.preliminary === true) break
        this.#providerResults.push({ name: part.toolName, callId: part.toolCallId, outcome: part.isError === true ? { error: part.result } : { result: part.result } })
        break
      case 'response-metadata':
        if (typeof part.modelId === 'string' && part.modelId !== '') this.#modelId = part.modelId
        break
      case 'finish':
        this.#usage = part.usage
        this.#finishReason = part.finishReason
        break
      case 'error':
        this.#error ??= part.error
        break
    }
  }

  finish(details: { usage?: LanguageModelV3Usage; finishReason?: LanguageModelV3FinishReason; modelId?: string | undefined }): void {
    if (details.usage !== undefined) this.#usage = details.usage
    if (details.finishReason !== undefined) this.#finishReason = details.finishReason
    if (typeof details.modelId === 'string' && details.modelId !== '') this.#modelId = details.modelId
  }

  fail(error: unknown): void {
    this.#error ??= error
  }

  /** Logs the call as a turn of its session, then the results that were waiting for it. Never throws. */
  log(): void {
    const s = this.#session
    if (this.#logged) return
    this.#logged = true
    this.#close()
    const latencyMs = performance.now() - this.#started
    recordSafelyAiSdk('a model call', () => {
      // A plain string (the V2 shape) is read too, from providers that do not quite follow V3.
      const reason = this.#finishReason as LanguageModelV3FinishReason | string | undefined
      s.logLlmCall({
        messages: promptMessages(this.#prompt),
        responseText: this.#text === '' ? null : this.#text,
        toolCalls: this.#toolCalls,
        model: this.#modelId,
        tokenUsage: tokenUsageOf(this.#usage),
        stopReason: typeof reason === 'string' ? reason : (reason?.unified ?? null),
        timestamp: this.timestamp,
        latencyMs,
        ...(this.#error === undefined ? {} : { error: this.#error }),
      })
      for (const { name, callId, outcome } of this.#providerResults) {
        s.logToolResult(name, { callId, ...outcome, skipIfRecorded: true })
      }
    })
    releaseHeldResults(s)
  }
}

/**
 * Records the results of earlier tool calls that the prompt hands back to the
 * model, for calls of this session that have none yet (a wrapped tool has
 * already recorded its own, exactly). Results of calls this session never
 * saw (a conversation history passed in by the user) are not its business.
 * The whole history comes with every prompt: only new results are converted.
 */
export function recordPromptResults(s: Session, prompt: LanguageModelV3Prompt): void {
  recordSafelyAiSdk('the tool results of a prompt', () => {
    for (const message of prompt) {
      if (message.role !== 'tool' && message.role !== 'assistant') continue
      for (const part of message.content) {
        if (part.type === 'tool-result') s.logResultOf(part.toolCallId, () => outcomeOf(part.output))
      }
    }
  })
}
