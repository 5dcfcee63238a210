/**
 * What the model was sent, read from a LanguageModelV3 prompt: the messages
 * as `{ role, content }`, and the tool results the SDK hands back to the model
 * (the whole history comes with every prompt: the session records only the
 * results of its own calls that have none yet, so a wrapped tool's exact
 * result wins, and history passed in by the user is not its business).
 *
 * Content keeps the SDK's own part shapes (`{ type: 'tool-call', toolCallId,
 * toolName, input }`), without provider options, and a message that is a
 * single text part becomes its text. File contents are replaced by their
 * size: the whole history is sent again at every step, so an image would be
 * copied into every later turn of the trace.
 */
import type { LanguageModelV3Message, LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider'
import type { RequestToolResult, ToolOutcome } from '../../src/adapter-support/index.js'

interface PromptMessage {
  role: string
  content: unknown
}

/** `[N bytes of file data]` for inline file contents; URLs are kept. */
function describeFileData(data: unknown): unknown {
  if (data instanceof URL) return data.href
  if (data instanceof Uint8Array) return `[${data.byteLength} bytes of file data]`
  if (typeof data === 'string') {
    if (/^(https?|gs|s3|file):/i.test(data)) return data
    return `[${Math.floor((data.length * 3) / 4)} bytes of file data]`
  }
  return data
}

/** The part's own fields: provider options and metadata, and fields the SDK left undefined, are dropped. */
function withoutProviderFields(part: object): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(part)) {
    if (value !== undefined && key !== 'providerOptions' && key !== 'providerMetadata') out[key] = value
  }
  return out
}

function simplifyOutput(output: LanguageModelV3ToolResultOutput): unknown {
  if (output.type !== 'content') return withoutProviderFields(output)
  return {
    type: 'content',
    value: output.value.map((item) => {
      const plain = withoutProviderFields(item)
      return 'data' in plain ? { ...plain, data: describeFileData(plain.data) } : plain
    }),
  }
}

function simplifyPart(part: object): unknown {
  const plain = withoutProviderFields(part)
  if (plain.type === 'file') return { ...plain, data: describeFileData(plain.data) }
  if (plain.type === 'tool-result') return { ...plain, output: simplifyOutput(plain.output as LanguageModelV3ToolResultOutput) }
  return plain
}

function toPromptMessage(message: LanguageModelV3Message): PromptMessage {
  const { role, content } = message
  if (typeof content === 'string') return { role, content }
  const [only] = content
  if (content.length === 1 && only?.type === 'text') return { role, content: only.text }
  return { role, content: content.map(simplifyPart) }
}

/** The prompt as trace messages. */
export function promptMessages(prompt: LanguageModelV3Prompt): PromptMessage[] {
  return prompt.map(toPromptMessage)
}

/** A tool result part's output as a result or an error (the recorder writes a non-string error as JSON). */
export function outcomeOf(output: LanguageModelV3ToolResultOutput): ToolOutcome {
  switch (output.type) {
    case 'text':
    case 'json':
      return { result: output.value }
    case 'error-text':
    case 'error-json':
      return { error: output.value }
    case 'execution-denied':
      return { error: output.reason === undefined ? 'execution denied' : `execution denied: ${output.reason}` }
    case 'content':
      return { result: (simplifyOutput(output) as { value: unknown }).value }
    default:
      // An output type newer than this adapter: keep it whole rather than lose it.
      return { result: withoutProviderFields(output as object) }
  }
}

/** The tool results the prompt hands back to the model. */
export function promptToolResults(prompt: LanguageModelV3Prompt): RequestToolResult[] {
  const results: RequestToolResult[] = []
  for (const message of prompt) {
    if (message.role !== 'tool' && message.role !== 'assistant') continue
    for (const part of message.content) {
      if (part.type === 'tool-result') results.push({ callId: part.toolCallId, outcome: () => outcomeOf(part.output) })
    }
  }
  return results
}
