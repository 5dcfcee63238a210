/**
 * Builds the response message out of streamed events, as the API documents
 * them: `message_start` carries the message with empty content and the input
 * usage; each content block opens with `content_block_start` at its `index`
 * and grows through `content_block_delta` events (`text_delta` text,
 * `input_json_delta` partial JSON of a tool's input); `message_delta` carries
 * the stop reason and usage counts that are cumulative totals (so they
 * replace, never add); `message_stop` ends the message.
 *
 * `result()` can be read at any point: a stream that breaks is recorded
 * with what arrived.
 */
import type { ModelResponse, StreamFold } from '../../src/adapter-support/index.js'
import { responseOf } from './response.js'
import type { WireBlock, WireEvent, WireMessage } from './wire.js'

export class MessageFold implements StreamFold<WireEvent> {
  readonly lastEvent = 'message_stop'
  #model: string | undefined
  #stopReason: string | null = null
  #usage: Record<string, unknown> | null = null
  readonly #blocks: Array<WireBlock | undefined> = []
  /** Tool input JSON text per content block index, as far as it arrived. */
  readonly #inputJson = new Map<number, string>()
  /** True once `message_stop` has arrived: the message is whole. */
  isComplete = false

  add(event: WireEvent): void {
    switch (event.type) {
      case 'message_start': {
        const { message } = event
        this.#model = message.model
        this.#stopReason = message.stop_reason ?? null
        this.#usage = message.usage ? { ...message.usage } : null
        if (Array.isArray(message.content)) this.#blocks.push(...message.content.map((block) => ({ ...block })))
        break
      }
      case 'content_block_start':
        this.#blocks[event.index] = { ...event.content_block }
        break
      case 'content_block_delta': {
        const block = this.#blocks[event.index]
        if (block === undefined) break
        const { delta } = event
        if (delta.type === 'text_delta' && typeof delta.text === 'string') block.text = (block.text ?? '') + delta.text
        else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          this.#inputJson.set(event.index, (this.#inputJson.get(event.index) ?? '') + delta.partial_json)
        }
        break
      }
      case 'message_delta':
        if (event.delta?.stop_reason != null) this.#stopReason = event.delta.stop_reason
        if (event.usage) {
          this.#usage ??= {}
          for (const [key, value] of Object.entries(event.usage)) if (value != null) this.#usage[key] = value
        }
        break
      case 'message_stop':
        this.isComplete = true
        break
      default:
        break
    }
  }

  result(): ModelResponse {
    return responseOf(this.#message())
  }

  /** The message as far as it arrived; a tool input still being streamed is its JSON text so far. */
  #message(): WireMessage {
    const content: WireBlock[] = []
    this.#blocks.forEach((block, index) => {
      if (block === undefined) return
      const json = this.#inputJson.get(index)
      content.push(json === undefined ? block : { ...block, input: json })
    })
    const message: WireMessage = { content, stop_reason: this.#stopReason, usage: this.#usage }
    if (this.#model !== undefined) message.model = this.#model
    return message
  }
}
