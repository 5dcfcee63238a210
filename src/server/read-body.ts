/**
 * A request body read with a limit on its size, checked as it arrives (a
 * declared Content-Length over the limit is refused before reading), and a
 * gzip body (`Content-Encoding: gzip`) inflated with the limit on what it
 * inflates to, so a small bomb cannot fill the server's memory. What gzip
 * bodies inflate to also counts against a budget of the whole server
 * (InflateBudget), held until the request is answered, so many small bombs
 * at once are refused rather than inflated side by side; and reading stops
 * when the client goes (the request's signal).
 */
import { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { ReagentError } from '../errors/index.js'

/** The body is over the limit; route groups answer it with a 413 in their own words. */
export class BodyTooLargeError extends ReagentError {
  override name = 'BodyTooLargeError' as const
  readonly limit: number

  constructor(limit: number) {
    super(`the body is over ${formatBytes(limit)}`)
    this.limit = limit
  }
}

/** The body's Content-Encoding is not one we read, or its gzip does not inflate. */
export class BadEncodingError extends ReagentError {
  override name = 'BadEncodingError' as const
}

/** The client went away (or its connection broke) before the body was whole: nobody waits for the answer. */
export class ClientGoneError extends ReagentError {
  override name = 'ClientGoneError' as const

  constructor(options?: ErrorOptions) {
    super('the body ended before it was whole: the client closed the connection while sending it', options)
  }
}

/** The server holds as many inflated bytes as its budget allows: the client should try again shortly. */
export class ServerBusyError extends ReagentError {
  override name = 'ServerBusyError' as const

  constructor(budget: number) {
    super(`the server is inflating other gzip bodies (${formatBytes(budget)} at once, its limit)`)
  }
}

/** The inflated bytes of gzip bodies the server holds at once, across requests. */
export class InflateBudget {
  readonly limit: number
  #used = 0

  constructor(limit: number) {
    this.limit = limit
  }

  /** Reserves `bytes`: false, and nothing reserved, when that would go over the limit. */
  take(bytes: number): boolean {
    if (this.#used + bytes > this.limit) return false
    this.#used += bytes
    return true
  }

  give(bytes: number): void {
    this.#used -= bytes
  }
}

/** A body read, and `release()` to give its share of the server's budget back once the request is answered. */
export interface ReadBody {
  bytes: Buffer
  release(): void
}

export interface ReadBodyOptions {
  /** The body's limit, before and after inflating. */
  limit: number
  /** The server's budget for inflated bodies. */
  budget: InflateBudget
  /** The request's signal: aborted when the client goes. */
  signal?: AbortSignal
}

export function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`
}

async function collect(chunks: AsyncIterable<Uint8Array>, limit: number, take: (bytes: number) => void, signal: AbortSignal | undefined): Promise<Buffer> {
  const parts: Buffer[] = []
  let size = 0
  for await (const chunk of chunks) {
    if (signal?.aborted === true) throw new ClientGoneError()
    size += chunk.byteLength
    if (size > limit) throw new BodyTooLargeError(limit)
    take(chunk.byteLength)
    parts.push(Buffer.from(chunk))
  }
  return Buffer.concat(parts, size)
}

/**
 * The body, inflated when gzip; throws `BodyTooLargeError` past `limit` bytes (before or after inflating),
 * `ServerBusyError` when a gzip body would take the server over its budget, `BadEncodingError`,
 * or `ClientGoneError` when the client goes before the body is whole.
 */
export async function readBody(request: Request, { limit, budget, signal }: ReadBodyOptions): Promise<ReadBody> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit)
  if (request.body === null) return { bytes: Buffer.alloc(0), release: () => {} }
  const encoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase()
  const raw = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>)
  let gone: Error | undefined
  raw.on('error', (error) => {
    gone = error
  })
  if (encoding !== 'identity' && encoding !== 'gzip') {
    raw.destroy()
    throw new BadEncodingError(`Content-Encoding ${encoding} is not supported; send the body as it is or gzip-compressed`)
  }
  const gunzip = encoding === 'gzip' ? createGunzip() : undefined
  if (gunzip !== undefined) raw.on('error', (error) => gunzip.destroy(error))
  const stop = (): void => {
    raw.destroy()
    gunzip?.destroy()
  }
  signal?.addEventListener('abort', stop, { once: true })
  let held = 0
  const release = (): void => {
    budget.give(held)
    held = 0
  }
  // Only what gzip inflates counts against the server's budget: a plain body is no bigger than what the client sent.
  const take = (bytes: number): void => {
    if (gunzip === undefined) return
    if (!budget.take(bytes)) throw new ServerBusyError(budget.limit)
    held += bytes
  }
  try {
    return { bytes: await collect(gunzip === undefined ? raw : raw.pipe(gunzip), limit, take, signal), release }
  } catch (error) {
    stop()
    release()
    if (error instanceof BodyTooLargeError || error instanceof ServerBusyError || error instanceof ClientGoneError) throw error
    if (gone !== undefined || signal?.aborted === true) throw new ClientGoneError({ cause: gone })
    throw new BadEncodingError(`the gzip body could not be inflated (${(error as Error).message})`)
  } finally {
    signal?.removeEventListener('abort', stop)
  }
}
