/**
 * A request body read with a limit on its size, checked as it arrives (a
 * declared Content-Length over the limit is refused before reading), and a
 * gzip body (`Content-Encoding: gzip`) inflated with the limit on what it
 * inflates to, so a small bomb cannot fill the server's memory.
 */
import { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { ReagentError } from '../errors.js'

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

export function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`
}

async function collect(chunks: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer> {
  const parts: Buffer[] = []
  let size = 0
  for await (const chunk of chunks) {
    size += chunk.byteLength
    if (size > limit) throw new BodyTooLargeError(limit)
    parts.push(Buffer.from(chunk))
  }
  return Buffer.concat(parts, size)
}

/**
 * The body, inflated when gzip; throws `BodyTooLargeError` past `limit` bytes (before or after inflating),
 * `BadEncodingError`, or `ClientGoneError` when the client goes before the body is whole.
 */
export async function readBody(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit)
  if (request.body === null) return Buffer.alloc(0)
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
  try {
    return await collect(gunzip === undefined ? raw : raw.pipe(gunzip), limit)
  } catch (error) {
    raw.destroy()
    gunzip?.destroy()
    if (error instanceof BodyTooLargeError) throw error
    if (gone !== undefined) throw new ClientGoneError({ cause: gone })
    throw new BadEncodingError(`the gzip body could not be inflated (${(error as Error).message})`)
  }
}
