/**
 * Folds `chat.completion.chunk` events into one response. Text deltas append to
 * their choice; tool-call deltas are keyed by (choice index, tool_call
 * index): the first delta of a call carries its id and name, the following
 * ones only pieces of the argument string. Usage comes in a last chunk
 * without choices, and only when the request asked for it
 * (`stream_options: { include_usage: true }`).
 *
 * The stream ends with `data: [DONE]`, which the SDK reads but does not
 * hand out: a chat stream is whole when it is read to its end.
 *
 * Only strings are kept, never the chunk objects: the SDK's stream helpers
 * and the user's code may mutate those after we have seen them.
 */
import type { ModelResponse, StreamFold } from '../../src/adapter-support/index.js'
import { field, usageOf } from './types.js'

interface CallState {
  id: string | undefined
  name: string
  arguments: string
}

interface ChoiceState {
  text: string | null
  finishReason: string | null
  calls: Map<number, CallState>
}

export class ChatChunkFold implements StreamFold {
  readonly lastEvent = '[DONE]'
  readonly isComplete = undefined
  #model: string | null = null
  #usage: unknown = null
  readonly #choices = new Map<number, ChoiceState>()

  add(chunk: unknown): void {
    const model = field(chunk, 'model')
    if (typeof model === 'string') this.#model = model
    const usage = field(chunk, 'usage')
    if (usage !== null && usage !== undefined) this.#usage = usage
    const choices = field(chunk, 'choices')
    if (!Array.isArray(choices)) return
    for (const choice of choices) this.#addChoice(choice)
  }

  #addChoice(choice: unknown): void {
    const index = field(choice, 'index')
    const state = this.#choice(typeof index === 'number' ? index : 0)
    const finishReason = field(choice, 'finish_reason')
    if (typeof finishReason === 'string') state.finishReason = finishReason
    const delta = field(choice, 'delta')
    const content = field(delta, 'content')
    if (typeof content === 'string') state.text = (state.text ?? '') + content
    const toolCalls = field(delta, 'tool_calls')
    if (!Array.isArray(toolCalls)) return
    for (const piece of toolCalls) {
      const at = field(piece, 'index')
      const key = typeof at === 'number' ? at : state.calls.size
      let call = state.calls.get(key)
      if (call === undefined) state.calls.set(key, (call = { id: undefined, name: '', arguments: '' }))
      const id = field(piece, 'id')
      if (typeof id === 'string' && id !== '') call.id = id
      const fn = field(piece, 'function') ?? field(piece, 'custom')
      const name = field(fn, 'name')
      if (typeof name === 'string' && name !== '') call.name = name
      const args = field(fn, 'arguments') ?? field(fn, 'input')
      if (typeof args === 'string') call.arguments += args
    }
  }

  #choice(index: number): ChoiceState {
    let state = this.#choices.get(index)
    if (state === undefined) this.#choices.set(index, (state = { text: null, finishReason: null, calls: new Map() }))
    return state
  }

  result(): ModelResponse {
    const first = this.#choices.get(0) ?? this.#choices.values().next().value
    const calls = first === undefined ? [] : [...first.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call)
    return {
      toolCalls: calls.map((call) => ({
        name: call.name === '' ? 'unknown' : call.name,
        arguments: call.arguments,
        ...(call.id === undefined ? {} : { callId: call.id }),
      })),
      responseText: first?.text ?? null,
      model: this.#model,
      tokenUsage: usageOf(this.#usage),
      stopReason: first?.finishReason ?? null,
    }
  }
}
