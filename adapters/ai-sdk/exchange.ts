/**
 * A call of the wrapped model, kept and answered again (record/replay,
 * `resume()`): `doGenerate`'s result, or `doStream`'s parts, as the recording
 * holds them. The request is the call options in normal form with the model
 * asked; what only travels with the call (abort signal, headers) is left out.
 * What the result carries for telemetry (the raw request body, the response's
 * headers and raw body) is not kept: a recording never holds headers.
 */
import type { Transformer } from 'node:stream/web'
import { APICallError, type LanguageModelV3GenerateResult, type LanguageModelV3StreamPart, type LanguageModelV3StreamResult } from '@ai-sdk/provider'
import {
  fromRecordedValue,
  keepResolved,
  normalizeRecordedRequest,
  toRecordedValue,
  type DescribedFault,
  type ModelExchange,
} from '../../src/adapter-support/index.js'
import type { MiddlewareCall } from './model-calls.js'

const NOT_THE_ANSWER: ReadonlySet<string> = new Set(['abortSignal', 'headers'])

function requestOf({ params, model }: MiddlewareCall): () => ReturnType<typeof normalizeRecordedRequest> {
  return () => normalizeRecordedRequest({ ...params, model: model.modelId }, NOT_THE_ANSWER)
}

/**
 * What a provider of the AI SDK raises for a failed request: a retryable
 * `APICallError` for a 429 or 5xx (so `generateText`'s `maxRetries` run,
 * waiting what `retry-after-ms` says), and for a timeout the `TimeoutError`
 * an aborted fetch rejects with (`AbortSignal.timeout`), which it never retries.
 */
function faultErrorOf({ params, model }: MiddlewareCall): (fault: DescribedFault) => Error {
  return ({ status, message, headers, body }) => {
    if (status === undefined) return new DOMException(`The operation was aborted due to timeout: ${message}`, 'TimeoutError')
    return new APICallError({
      message,
      url: `${model.provider}: an injected fault`,
      requestBodyValues: params,
      statusCode: status,
      responseHeaders: { ...headers },
      responseBody: JSON.stringify(body),
      data: body,
    })
  }
}

function endpointOf({ model }: MiddlewareCall, method: string): string {
  return `ai-sdk ${model.provider} ${method}`
}

/** The result without what is kept for telemetry only. */
function kept(result: LanguageModelV3GenerateResult): LanguageModelV3GenerateResult {
  const { request: _request, response, ...rest } = result
  if (response === undefined) return rest
  const { headers: _headers, body: _body, ...metadata } = response
  return { ...rest, response: metadata }
}

export function generateExchange(call: MiddlewareCall): ModelExchange<PromiseLike<LanguageModelV3GenerateResult>> {
  return {
    endpoint: endpointOf(call, 'doGenerate'),
    request: requestOf(call),
    capture: (made, done) => keepResolved(made, done, (result) => toRecordedValue(kept(result))),
    rebuild: (response) => Promise.resolve(fromRecordedValue('value' in response ? response.value : null) as LanguageModelV3GenerateResult),
    fail: (error) => Promise.reject(error),
    faultError: faultErrorOf(call),
  }
}

/** A stream of recorded parts, one per read. */
function replayedParts(chunks: readonly unknown[]): ReadableStream<LanguageModelV3StreamPart> {
  let next = 0
  return new ReadableStream<LanguageModelV3StreamPart>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(fromRecordedValue(chunks[next++] as never) as LanguageModelV3StreamPart)
      else controller.close()
    },
  })
}

/**
 * The parts passed on as they are read, and kept when the stream ends or its
 * reader leaves it (what the agent read is what a replay gives it); a stream
 * that fails is not kept.
 */
function keptParts(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  done: Parameters<ModelExchange<unknown>['capture']>[1],
): ReadableStream<LanguageModelV3StreamPart> {
  type Part = LanguageModelV3StreamPart
  const parts: Part[] = []
  const keep = (): void => done(() => ({ chunks: parts.map(toRecordedValue) }))
  // `cancel` is in the Streams standard and Node 20's later releases (see observe-stream.ts); a reader leaving without a reason is not a failure.
  const transformer: Transformer<Part, Part> & { cancel?: (reason: unknown) => void } = {
    transform(part, controller) {
      parts.push(part)
      controller.enqueue(part)
    },
    flush: keep,
    cancel: (reason) => (reason === undefined ? keep() : done(undefined)),
  }
  return stream.pipeThrough(new TransformStream(transformer))
}

export function streamExchange(call: MiddlewareCall): ModelExchange<PromiseLike<LanguageModelV3StreamResult>> {
  return {
    endpoint: endpointOf(call, 'doStream'),
    request: requestOf(call),
    capture: (made, done) =>
      Promise.resolve(made).then(
        (result) => ({ ...result, stream: keptParts(result.stream, done) }),
        (error: unknown) => {
          done(undefined)
          throw error
        },
      ),
    rebuild: (response) => Promise.resolve({ stream: replayedParts('chunks' in response ? response.chunks : []) }),
    fail: (error) => Promise.reject(error),
    faultError: faultErrorOf(call),
  }
}
