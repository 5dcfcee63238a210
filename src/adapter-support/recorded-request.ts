/**
 * A model call's request in the normal form recordings match on (see
 * replay/normalize.ts), for adapters that read their requests themselves
 * (the AI SDK middleware, LangChain, the Agents SDK): `omit` names the top
 * fields that only travel with the call (abort signals, headers, callbacks).
 */
import { normalizeRequest } from '../replay/normalize.js'
import type { JsonValue } from '../trace/types.js'

export function normalizeRecordedRequest(request: unknown, omit?: ReadonlySet<string>): JsonValue {
  return normalizeRequest(request, omit === undefined ? {} : { omit })
}
