/**
 * Scripted models for the AI SDK adapter tests: the SDK's own
 * MockLanguageModelV3, answering step n of an agent loop with script[n],
 * as a `doGenerate` result or as the equivalent V3 stream.
 */
import type { LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider'
import { simulateReadableStream } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'

export function usage(input: number, output: number, { cacheRead, reasoning }: { cacheRead?: number; reasoning?: number } = {}): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: input - (cacheRead ?? 0), cacheRead, cacheWrite: undefined },
    outputTokens: { total: output, text: output - (reasoning ?? 0), reasoning },
  }
}

export function toolCall(toolCallId: string, toolName: string, input: unknown): LanguageModelV3Content {
  return { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }
}

export function text(value: string): LanguageModelV3Content {
  return { type: 'text', text: value }
}

/** One model answer; its finish reason is "tool-calls" when it calls tools, else "stop". */
export function answer(content: LanguageModelV3Content[], tokens: LanguageModelV3Usage = usage(10, 5)): LanguageModelV3GenerateResult {
  const callsTools = content.some((part) => part.type === 'tool-call')
  return {
    content,
    finishReason: callsTools ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
    usage: tokens,
    warnings: [],
  }
}

/** The stream parts a provider sends for `result`: text in two deltas, whole tool calls, then finish. */
export function streamPartsOf(result: LanguageModelV3GenerateResult): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }]
  result.content.forEach((part, i) => {
    if (part.type === 'text') {
      const id = `text-${i}`
      const half = Math.ceil(part.text.length / 2)
      parts.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: part.text.slice(0, half) },
        { type: 'text-delta', id, delta: part.text.slice(half) },
        { type: 'text-end', id },
      )
    } else {
      parts.push(part as LanguageModelV3StreamPart)
    }
  })
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage })
  return parts
}

function next<T>(script: readonly T[], calls: { count: number }, modelId: string): T {
  const step = script[calls.count]
  calls.count += 1
  if (step === undefined) throw new Error(`${modelId}: no scripted answer for call #${calls.count} (only ${script.length})`)
  return step
}

export function generatingModel(script: LanguageModelV3GenerateResult[], modelId = 'scripted-gpt'): MockLanguageModelV3 {
  const calls = { count: 0 }
  return new MockLanguageModelV3({ modelId, doGenerate: async () => next(script, calls, modelId) })
}

/**
 * A model that streams its scripted answers. `readyMade` builds every stream
 * up front (where the model is created), as tests often do; otherwise each is
 * built when it is asked for, as a provider does.
 */
export function streamingModel(script: LanguageModelV3GenerateResult[], { modelId = 'scripted-gpt', readyMade = false } = {}): MockLanguageModelV3 {
  const streamOf = (result: LanguageModelV3GenerateResult) => ({ stream: simulateReadableStream({ chunks: streamPartsOf(result) }) })
  if (readyMade) return new MockLanguageModelV3({ modelId, doStream: script.map(streamOf) })
  const calls = { count: 0 }
  return new MockLanguageModelV3({ modelId, doStream: async () => streamOf(next(script, calls, modelId)) })
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
