/**
 * `instrumentAnthropic(client)`: patch one client instance so its model calls
 * are recorded into the active session.
 *
 * The client itself is left as it is (a Proxy around it would break its
 * `#private` fields); only `create` of its `messages` and `beta.messages`
 * resources is replaced, by an own property of those resource instances. The
 * SDK's helpers (`messages.stream()`, `parse()`, the beta tool runner and
 * message threads) call that same `create`, so they are recorded once, by it.
 */
import { markInstrumented, patchMethod, recordedCreate, recordFetch, reinstrumentWithOptions } from '../../src/adapter-support/index.js'
import { messagesCreate } from './messages-api.js'

/** A registry symbol, so two copies of reagent-flow in one process do not patch a client twice. */
const INSTRUMENTED = Symbol.for('reagent-flow.anthropic.instrumented')

/** The shape `instrumentAnthropic` needs: an Anthropic client (`new Anthropic()`), or one of the same family. */
export interface AnthropicLike {
  messages: { create: unknown }
}

/**
 * Instruments an Anthropic client and returns it (the same instance, still
 * `instanceof Anthropic`). Inside a `session()`, every `messages.create()` —
 * streamed or not, and through `messages.stream()` — is recorded as one turn:
 * tool calls, text, model, stop reason, latency, token usage (cache fields
 * kept) and the request's messages; the `tool_result` blocks the agent sends
 * back are recorded as the results of their calls. Its requests can be
 * recorded and answered from a recording (the `replay` option), and are kept
 * in the run's journal for `resume()`. Outside a session the client behaves
 * exactly as before. Instrumenting a client twice changes nothing.
 *
 * @example
 * import Anthropic from '@anthropic-ai/sdk'
 * import { instrumentAnthropic } from 'reagent-flow/anthropic'
 *
 * const client = instrumentAnthropic(new Anthropic())
 */
export function instrumentAnthropic<Client extends AnthropicLike>(client: Client): Client {
  if (typeof client !== 'object' || client === null || typeof client.messages?.create !== 'function') {
    throw new TypeError(
      `instrumentAnthropic(client) needs an Anthropic client (new Anthropic() from @anthropic-ai/sdk), ` +
        `got ${client === null ? 'null' : typeof client === 'object' ? 'an object without messages.create()' : typeof client}.`,
    )
  }
  if (!markInstrumented(client, INSTRUMENTED)) return client
  patchMethod(client.messages, 'create', recordedCreate(client, messagesCreate))
  patchMethod((client as { beta?: { messages?: object } }).beta?.messages, 'create', recordedCreate(client, messagesCreate))
  // Every request of the client, model calls or not, is recorded and replayed at its HTTP layer.
  recordFetch(client, 'anthropic')
  reinstrumentWithOptions(client, (derived) => instrumentAnthropic(derived as AnthropicLike))
  return client
}
