/**
 * A model that could not be reached, in `auto`: the call missed the
 * recording, was made live, and never got an answer (connection refused, no
 * such host, the network down). Its caller gets the miss, as `replay` fails
 * it, saying the model could not be reached, in place of the SDK's
 * `Connection error.`: the first failure is answered, so the SDK never
 * retries it into a wait (docs/decisions/044-steady-recordings.md).
 */
import { isThenable } from '../base/thenable.js'

/** Error codes of a request that never reached the server (Node's `net`/`dns`, undici's). */
const UNREACHABLE: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ETIMEDOUT',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
])

const MAX_DEPTH = 8

/**
 * How the request failed to reach the model (`connect ECONNREFUSED 127.0.0.1:9`),
 * found in `error` or its causes (a `fetch failed` TypeError, an SDK's
 * connection error); undefined for any other failure (an abort, an HTTP error).
 */
export function unreachableBecause(error: unknown, depth = 0): string | undefined {
  if (error === null || typeof error !== 'object' || depth > MAX_DEPTH) return undefined
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown }
  if (typeof code === 'string' && UNREACHABLE.has(code)) return typeof message === 'string' && message !== '' ? message : code
  // Node tries every address of a host (happy eyeballs) and fails with all of their errors.
  if (Array.isArray(errors)) {
    for (const each of errors) {
      const found = unreachableBecause(each, depth + 1)
      if (found !== undefined) return found
    }
  }
  return unreachableBecause(cause, depth + 1)
}

type Unreachable = (failure: string) => Error

/** `error`, or the miss in its place when it says the model was unreachable. */
function missFor(error: unknown, unreachable: Unreachable): unknown {
  const failure = unreachableBecause(error)
  return failure === undefined ? error : unreachable(failure)
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function'
}

/** The chunks of `stream`, failing with the miss when it fails before its first chunk because the model was unreachable. */
async function* missBeforeFirst(stream: AsyncIterable<unknown>, unreachable: Unreachable): AsyncGenerator<unknown> {
  let isStarted = false
  try {
    for await (const chunk of stream) {
      isStarted = true
      yield chunk
    }
  } catch (error) {
    throw isStarted ? error : missFor(error, unreachable)
  }
}

/**
 * What a model's own layer made (a promise, or a stream of chunks), failing
 * with the miss in place of an unreachable model's error. Anything else is
 * returned as it is.
 */
export function unreachableAsMiss<R>(made: R, unreachable: Unreachable): R {
  if (isThenable(made)) {
    return Promise.resolve(made).then(undefined, (error: unknown) => {
      throw missFor(error, unreachable)
    }) as R
  }
  if (isAsyncIterable(made)) return missBeforeFirst(made, unreachable) as R
  return made
}
