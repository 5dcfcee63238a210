/**
 * Folds Responses API stream events into one response. The last event
 * (`response.completed`, `.incomplete` or `.failed`) carries the whole
 * response, which is what gets recorded, as soon as it arrives; the deltas
 * before it only matter when the stream stops early. Argument deltas name their output item by
 * `item_id` (the item's `id`, not the `call_id` that tool results refer to),
 * so calls are kept per item id, in output order.
 *
 * Only strings are kept: the SDK's ResponseStream appends deltas to the very
 * item objects the events carry.
 */
import type { ModelResponse, StreamFold, ToolCallInput } from '../../src/adapter-support/index.js'
import { CALL_ITEMS, responseError, responseOf, toolCallOfItem } from './responses-output.js'
import { field, stringOrNull } from './types.js'

interface CallState {
  call: ToolCallInput
  arguments: string
}

export class ResponseEventFold implements StreamFold {
  readonly lastEvent = 'response.completed'
  #final: ModelResponse | undefined
  #model: string | null = null
  #error: Error | undefined
  readonly #calls = new Map<string, CallState>()
  /** Text per `item_id:content_index`, in arrival order. */
  readonly #texts = new Map<string, string>()

  add(event: unknown): void {
    switch (field(event, 'type')) {
      case 'response.created':
      case 'response.in_progress':
        this.#model = stringOrNull(field(field(event, 'response'), 'model')) ?? this.#model
        break
      case 'response.output_item.added':
      case 'response.output_item.done':
        this.#addItem(field(event, 'item'))
        break
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
        this.#appendArguments(field(event, 'item_id'), field(event, 'delta'))
        break
      case 'response.function_call_arguments.done':
        this.#setArguments(field(event, 'item_id'), field(event, 'arguments'))
        break
      case 'response.custom_tool_call_input.done':
        this.#setArguments(field(event, 'item_id'), field(event, 'input'))
        break
      case 'response.output_text.delta':
        this.#appendText(event, field(event, 'delta'), false)
        break
      case 'response.output_text.done':
        this.#appendText(event, field(event, 'text'), true)
        break
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        this.#final = responseOf(field(event, 'response'))
        break
      case 'error':
        this.#error = responseError(event)
        break
    }
  }

  #addItem(item: unknown): void {
    if (!CALL_ITEMS.has(field(item, 'type'))) return
    const id = stringOrNull(field(item, 'id')) ?? stringOrNull(field(item, 'call_id'))
    if (id === null) return
    const call = toolCallOfItem(item)
    this.#calls.set(id, { call, arguments: typeof call.arguments === 'string' ? call.arguments : '' })
  }

  #appendArguments(itemId: unknown, delta: unknown): void {
    const state = typeof itemId === 'string' ? this.#calls.get(itemId) : undefined
    if (state !== undefined && typeof delta === 'string') state.arguments += delta
  }

  #setArguments(itemId: unknown, whole: unknown): void {
    const state = typeof itemId === 'string' ? this.#calls.get(itemId) : undefined
    if (state !== undefined && typeof whole === 'string') state.arguments = whole
  }

  #appendText(event: unknown, text: unknown, whole: boolean): void {
    if (typeof text !== 'string') return
    const key = `${String(field(event, 'item_id'))}:${String(field(event, 'content_index'))}`
    this.#texts.set(key, whole ? text : (this.#texts.get(key) ?? '') + text)
  }

  /** True once the event carrying the whole response (completed, incomplete or failed) has arrived. */
  get isComplete(): boolean {
    return this.#final !== undefined
  }

  result(): ModelResponse {
    const response = this.#final ?? this.#partial()
    return this.#error !== undefined && response.error === undefined ? { ...response, error: this.#error } : response
  }

  #partial(): ModelResponse {
    return {
      toolCalls: [...this.#calls.values()].map(({ call, arguments: args }) => ({ ...call, arguments: args })),
      responseText: this.#texts.size === 0 ? null : [...this.#texts.values()].join(''),
      model: this.#model,
      tokenUsage: null,
      stopReason: null,
    }
  }
}
