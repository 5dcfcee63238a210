/**
 * The transcript of a conversation as the agent and the test see it, while
 * it runs: who said what, in order, each line with its exchange. The trace
 * keeps the same lines (with the turns each reply produced) as its
 * `conversation` field.
 */
import type { ConversationRole } from '../trace/types.js'

/** One message of a conversation: `user` is the simulated user, `assistant` the agent under test. */
export interface TranscriptMessage {
  readonly role: ConversationRole
  readonly content: string
  /** The exchange it belongs to: 1 for the user's first message and the agent's reply to it. */
  readonly exchange: number
}

/** The conversation so far, oldest first. */
export type Transcript = readonly TranscriptMessage[]

/**
 * The transcript as chat messages (`{ role, content }` only), to hand to a
 * chat API as the agent's history.
 *
 * @example
 * const reply = await openai.chat.completions.create({ model, messages: [system, ...chatHistory(transcript)] })
 */
export function chatHistory(transcript: Transcript): Array<{ role: ConversationRole; content: string }> {
  return transcript.map(({ role, content }) => ({ role, content }))
}
