/**
 * `instrumentOpenAI(client)`: the public entry of the adapter. It patches
 * this client instance (never a Proxy around it: the SDK's `#private` fields
 * would break) and returns the same object.
 */
import type { OpenAI } from 'openai'
import { markInstrumented, patchMethod, recordedCreate, recordFetch, reinstrumentWithOptions } from '../../src/adapter-support/index.js'
import { chatCompletions } from './chat-completions.js'
import { responses } from './responses.js'

/** Shared by every copy of this adapter in the process, so two copies never patch one client twice. */
const INSTRUMENTED = Symbol.for('reagent-flow.openai.instrumented')

interface Patchable {
  chat?: { completions?: object }
  responses?: object
}

/**
 * Instruments an OpenAI client so that every `chat.completions.create` and
 * `responses.create` made inside a `session()` is recorded into it (and the
 * SDK's `parse`, `stream`, `runTools` helpers, which call them). Every
 * request the client makes in a session (embeddings, moderations too) can be
 * recorded and answered from a recording (the `replay` option), and is kept
 * in the run's journal for `resume()`. Outside a session the client behaves
 * exactly as before. Returns the same client; instrumenting it again changes
 * nothing, and `client.withOptions()` returns an instrumented client too.
 *
 * @example
 * const openai = instrumentOpenAI(new OpenAI())
 * const s = await session('weather-agent', () => runAgent(openai, 'Weather in Paris?'))
 * s.assertCalled('get_weather')
 */
export function instrumentOpenAI<Client extends OpenAI>(client: Client): Client {
  const target = client as unknown as Patchable | null | undefined
  if (target === null || typeof target !== 'object' || typeof target.chat?.completions !== 'object') {
    const got = target === null ? 'null' : typeof target === 'object' ? 'an object without chat.completions' : typeof target
    throw new TypeError(`instrumentOpenAI(client) needs an OpenAI client (new OpenAI() from "openai"), got ${got}.`)
  }
  if (!markInstrumented(target, INSTRUMENTED)) return client
  patchMethod(target.chat.completions, 'create', recordedCreate(client, chatCompletions))
  patchMethod(target.responses, 'create', recordedCreate(client, responses))
  // Every request of the client, model calls or not, is recorded and replayed at its HTTP layer.
  recordFetch(target, 'openai')
  reinstrumentWithOptions(target, (derived) => instrumentOpenAI(derived as OpenAI))
  return client
}
