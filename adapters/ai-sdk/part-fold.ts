/**
 * Folds a model's output into one response: the content parts of a
 * `doGenerate` result, or, part by part, a `doStream` stream, whose
 * `finish` part completes it.
 */
import type { LanguageModelV3Content, LanguageModelV3FinishReason, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider'
import type { ModelResponse, ProviderToolResult, StreamFold, ToolCallInput } from '../../src/adapter-support/index.js'

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

/** What a `doGenerate` result says besides its content parts. */
export interface GenerateDetails {
  usage?: LanguageModelV3Usage
  finishReason?: LanguageModelV3FinishReason
  modelId?: string | undefined
}

export class PartFold implements StreamFold<LanguageModelV3StreamPart> {
  readonly lastEvent = 'its finish part'
  isComplete = false
  #modelId: string | null = null
  #text = ''
  readonly #toolCalls: ToolCallInput[] = []
  readonly #providerResults: ProviderToolResult[] = []
  #usage: LanguageModelV3Usage | undefined
  #finishReason: LanguageModelV3FinishReason | undefined
  #error: unknown

  /** Takes in one content part (`doGenerate`) or stream part (`doStream`). */
  add(part: LanguageModelV3Content | LanguageModelV3StreamPart): void {
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
      case 'tool-result': {
        if (part.preliminary === true) break
        const { result, isError } = part
        this.#providerResults.push({ callId: part.toolCallId, name: part.toolName, outcome: () => (isError === true ? { error: result } : { result }) })
        break
      }
      case 'response-metadata':
        this.#setModelId(part.modelId)
        break
      case 'finish':
        this.finish(part)
        this.isComplete = true
        break
      case 'error':
        this.#error ??= part.error
        break
    }
  }

  /** What a `doGenerate` result (or a `finish` part) says besides the content. */
  finish(details: GenerateDetails): void {
    if (details.usage !== undefined) this.#usage = details.usage
    if (details.finishReason !== undefined) this.#finishReason = details.finishReason
    this.#setModelId(details.modelId)
  }

  #setModelId(modelId: string | undefined): void {
    if (typeof modelId === 'string' && modelId !== '') this.#modelId = modelId
  }

  result(): ModelResponse {
    // A plain string (the V2 shape) is read too, from providers that do not quite follow V3.
    const reason = this.#finishReason as LanguageModelV3FinishReason | string | undefined
    return {
      toolCalls: this.#toolCalls,
      responseText: this.#text === '' ? null : this.#text,
      model: this.#modelId,
      tokenUsage: tokenUsageOf(this.#usage),
      stopReason: typeof reason === 'string' ? reason : (reason?.unified ?? null),
      ...(this.#error === undefined ? {} : { error: this.#error }),
      ...(this.#providerResults.length === 0 ? {} : { providerToolResults: this.#providerResults }),
    }
  }
}
