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
import { instrumentCreate, type CreateMethod } from './create.js'

/** A registry symbol, so two copies of reagent-flow in one process do not patch a client twice. */
const INSTRUMENTED = Symbol.for('reagent-flow.anthropic.instrumented')

/** The shape `instrumentAnthropic` needs: an Anthropic client (`new Anthropic()`), or one of the same family. */
export interface AnthropicLike {
  messages: { create: unknown }
}

function patchMessages(resource: unknown): void {
  if (typeof resource !== 'object' || resource === null || Object.hasOwn(resource, INSTRUMENTED)) return
  const original = (resource as { create?: unknown }).create
  if (typeof original !== 'function') return
  const define = { configurable: true, writable: true, enumerable: false }
  Object.defineProperty(resource, 'create', { ...define, value: instrumentCreate(original as CreateMethod) })
  Object.defineProperty(resource, INSTRUMENTED, { ...define, value: true })
}

/** `withOptions()` builds a new client with new resources: instrument it too. */
function patchWithOptions(client: object): void {
  if (Object.hasOwn(client, INSTRUMENTED)) return
  const withOptions = (client as { withOptions?: unknown }).withOptions
  if (typeof withOptions === 'function') {
    Object.defineProperty(client, 'withOptions', {
      configurable: true,
      writable: true,
      enumerable: false,
      value: function (this: unknown, ...args: unknown[]): unknown {
        const copy: unknown = withOptions.apply(this, args)
        return typeof copy === 'object' && copy !== null && 'messages' in copy ? instrumentAnthropic(copy as AnthropicLike) : copy
      },
    })
  }
  Object.defineProperty(client, INSTRUMENTED, { configurable: true, value: true })
}

/**
 * Instruments an Anthropic client and returns it (the same instance, still
 * `instanceof Anthropic`). Inside a `session()`, every `messages.create()` —
 * streamed or not, and through `messages.stream()` — is recorded as one turn:
 * tool calls, text, model, stop reason, latency, token usage (cache fields
 * kept) and the request's messages; the `tool_result` blocks the agent sends
 * back are recorded as the results of their calls. Outside a session the
 * client behaves exactly as before. Instrumenting a client twice changes nothing.
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
  patchMessages(client.messages)
  patchMessages((client as { beta?: { messages?: unknown } }).beta?.messages)
  patchWithOptions(client)
  return client
}
