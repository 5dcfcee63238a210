/**
 * How a `fetch` of ours (a scripted model, a replay that finds no recording)
 * makes an SDK hand our error to its caller as the very same object.
 *
 * Throwing from `fetch` does not work: the Stainless SDKs (openai,
 * @anthropic-ai/sdk) catch whatever `fetch` throws, retry it with backoff,
 * and then raise `APIConnectionError: Connection error.` in its place. They
 * retry only what happens before a response arrives, though, and a 2xx is
 * final. So we answer 200 with a body that fails when it is read: the SDK
 * parses a JSON body with `response.json()` and a stream with the body's
 * reader, and both reject with the error the body stream failed with.
 * A non-streamed call rejects with our error; a streamed one resolves to the
 * SDK's stream, whose first read rejects with it.
 *
 * LangChain retries on its own (its AsyncCaller, around every model call,
 * including ChatOpenAI's client): it leaves alone an error marked with its
 * registered `langchain.errors.retryable` symbol set to false, a mark made
 * for exactly this, and read the same by every copy of @langchain/core.
 */

const LANGCHAIN_RETRYABLE = Symbol.for('langchain.errors.retryable')

/** Marks `error` as one no SDK should retry. Returns it. */
export function markNotRetryable<E>(error: E): E {
  if (typeof error === 'object' && error !== null && Object.isExtensible(error)) {
    Object.defineProperty(error, LANGCHAIN_RETRYABLE, { value: false, configurable: true })
  }
  return error
}

/**
 * A 200 response whose body fails with `error` when read. `stream` picks the
 * content type the SDK expects (Server-Sent Events or JSON), so it reads the
 * body the way it reads a real answer.
 */
export function responseFailingWith(error: unknown, { stream }: { stream: boolean }): Response {
  markNotRetryable(error)
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(error)
    },
  })
  return new Response(body, {
    status: 200,
    headers: { 'content-type': stream ? 'text/event-stream' : 'application/json' },
  })
}
