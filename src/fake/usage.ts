/**
 * Deterministic token counts for a scripted call: about four characters a
 * token (OpenAI's rule of thumb), so that a longer conversation costs more,
 * budgets can be tested, and the same run always reports the same figures.
 */
import type { ScriptedUsage, ScriptRequest } from './types.js'

const CHARACTERS_PER_TOKEN = 4

export interface TokenCounts {
  inputTokens: number
  outputTokens: number
}

/** The tokens of a call: the step's own figures where it gives them, else the estimate. */
export function tokenCounts(
  request: ScriptRequest,
  answer: { text: string | undefined; toolCalls: readonly { name: string; json: string }[] },
  given: ScriptedUsage | undefined,
): TokenCounts {
  return {
    inputTokens: given?.inputTokens ?? estimate(inputCharacters(request)),
    outputTokens:
      given?.outputTokens ?? estimate((answer.text?.length ?? 0) + answer.toolCalls.reduce((sum, call) => sum + call.name.length + call.json.length, 0)),
  }
}

function inputCharacters(request: ScriptRequest): number {
  let characters = 0
  for (const message of request.messages) {
    characters += message.content.length
    if (message.role === 'assistant') {
      for (const call of message.toolCalls) characters += call.name.length + JSON.stringify(call.arguments ?? null).length
    }
  }
  for (const tool of request.tools) {
    characters += tool.name.length + (tool.description?.length ?? 0) + (tool.parameters === undefined ? 0 : JSON.stringify(tool.parameters).length)
  }
  return characters
}

function estimate(characters: number): number {
  return Math.max(1, Math.ceil(characters / CHARACTERS_PER_TOKEN))
}
