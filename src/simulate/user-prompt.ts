/**
 * What the simulated user's model is told: the system prompt built from the
 * goal and persona (docs/simulation.md shows it; `systemPrompt` overrides
 * it), the chat from the user's side, and the one tool it ends the
 * conversation with. Ending is a tool call, a structured signal: matching
 * "bye" in the text would end on a polite sign-off and miss a silent one.
 */
import type { ChatMessage, ModelTool } from './model-types.js'
import type { Transcript } from './transcript.js'

/** What a system prompt is built from. */
export interface UserPromptInput {
  goal: string
  persona: string | null
}

/** The tool the simulated user's model calls to end the conversation. */
export const END_CONVERSATION: ModelTool = {
  name: 'end_conversation',
  description:
    'End the conversation. Call it when your goal is met, or when it is clear the assistant will not or cannot meet it. ' +
    'Do not write a message when you call it.',
  parameters: {
    type: 'object',
    properties: {
      goal_met: { type: 'boolean', description: 'true when the assistant did what you wanted, false when it did not' },
      reason: { type: 'string', description: 'In one sentence, why the conversation ends' },
    },
    required: ['goal_met', 'reason'],
    additionalProperties: false,
  },
}

/**
 * The default system prompt of a simulated user.
 *
 * @example
 * simulatedUser({ goal, model, systemPrompt: ({ goal }) => `${defaultUserPrompt({ goal, persona: null })}\nAnswer in German.` })
 */
export function defaultUserPrompt({ goal, persona }: UserPromptInput): string {
  const lines = [
    'You are role-playing a user who is talking to an AI assistant, to test the assistant. Stay in character as the user at all times: never act as the assistant, never mention that you are simulated or testing.',
    '',
    `Your goal: ${goal}`,
  ]
  if (persona !== null) lines.push('', `Who you are and how you talk: ${persona}`)
  lines.push(
    '',
    'Write only your next message to the assistant, the way this user would type it: one message at a time, short and natural.',
    'Give information when the assistant asks for it, not before, as a real user would. Do not invent facts your goal does not give you; if you are asked for something you do not know, say so.',
    `When your goal is met, or it is clear the assistant will not or cannot meet it, call the ${END_CONVERSATION.name} tool instead of writing a message.`,
  )
  return lines.join('\n')
}

/** The first message the user's model sees: nothing has been said yet, so it is asked to begin. */
const BEGIN = 'The conversation begins now. Write your first message to the assistant.'

/**
 * The conversation from the user's side, as the user's model reads it: its
 * own messages are `assistant`, the agent's are `user`, after a first line
 * asking it to begin (so the chat starts with a user message and alternates,
 * as every chat API wants).
 */
export function userSideMessages(transcript: Transcript): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: BEGIN }]
  for (const { role, content } of transcript) messages.push({ role: role === 'user' ? 'assistant' : 'user', content })
  return messages
}
