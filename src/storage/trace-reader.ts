/**
 * Reading trace files of any size. A file small enough is read and parsed
 * whole; a larger one is read in pieces, a turn at a time, from the line
 * layout both writers use (ours and reagent-flow 0.5's `json.dump(indent=2)`:
 * each turn of `turns` sits between a line `    {` and a line `    }`), so no
 * string of the whole file is ever built. A file too large for the memory
 * this process has left fails fast, before it is read.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs'
import { heapStatistics } from '../base/node-builtins.js'
import { TraceFileError, TraceFormatError, TraceNotFoundError } from '../errors/index.js'
import { expandMessages } from '../trace/messages.js'
import type { Trace, Turn } from '../trace/types.js'
import { parseTrace, validateTrace } from '../trace/validate.js'

/** Files up to this size are parsed in one piece (well under V8's string limit of about 512 MiB). */
const WHOLE_FILE_LIMIT = 128 << 20
/** Parsed JSON takes about this many times the bytes of its text (measured on adapter traces: 1.1 to 1.6). */
const MEMORY_PER_BYTE = 2
const READ_CHUNK = 16 << 20

const TURNS_OPEN = Buffer.from('\n  "turns": [')
const TURN_CLOSE = Buffer.from('\n    }')
const TURNS_CLOSE = Buffer.from('\n  ]')

function megabytes(bytes: number): string {
  return `${(bytes / (1 << 20)).toFixed(1)} MB`
}

function notFound(path: string, hint: string, name?: string): TraceNotFoundError {
  return new TraceNotFoundError(path, hint, name)
}

/** The size of the file at `path`: a missing one is a `TraceNotFoundError` with `hint`, anything else a `TraceFileError`. */
export function fileSize(path: string, hint: string, name?: string): number {
  let stats
  try {
    stats = statSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(path, hint, name)
    throw new TraceFileError(path, 'read', error)
  }
  if (stats.isDirectory()) throw new TraceFileError(path, 'read', Object.assign(new Error('is a directory'), { code: 'EISDIR' }))
  return stats.size
}

/** Fails fast when reading `size` bytes of trace would need more memory than the process has free. */
function checkMemory(path: string, size: number): void {
  const heap = heapStatistics()
  const free = heap.heap_size_limit - heap.used_heap_size
  const needed = size * MEMORY_PER_BYTE
  if (needed <= free) return
  throw new TraceFormatError(
    path,
    '',
    'size',
    `the file is ${megabytes(size)}, too large to load here: loading it needs about ${megabytes(needed)} of memory and this process has ${megabytes(free)} free ` +
      `(of ${megabytes(heap.heap_size_limit)}). Run node with a larger --max-old-space-size, or load fewer traces at once`,
  )
}

/**
 * The part of a file being read, in one buffer reused from piece to piece:
 * a new buffer per piece would be external memory that V8 answers with full
 * collections of a heap growing with every turn read (14 of them loading
 * 1,000,000 turns, against 4 for the same parse without them). It grows only
 * for a turn larger than itself.
 */
class FileWindow {
  #store = Buffer.allocUnsafe(READ_CHUNK)
  #held = 0
  #read = 0
  readonly #fd: number
  readonly #size: number

  constructor(fd: number, size: number) {
    this.#fd = fd
    this.#size = size
  }

  /** The bytes held, from the first not yet dropped. */
  get bytes(): Buffer {
    return this.#store.subarray(0, this.#held)
  }

  /** Reads on until `need` bytes are held (the buffer grows if it must) or the file ends. */
  fill(need: number): void {
    need = Math.min(need, this.#held + this.#size - this.#read)
    if (need > this.#store.length) {
      const larger = Buffer.allocUnsafe(Math.max(need, this.#store.length * 2))
      this.#store.copy(larger, 0, 0, this.#held)
      this.#store = larger
    }
    while (this.#held < need) {
      const read = readSync(this.#fd, this.#store, this.#held, Math.min(this.#store.length - this.#held, this.#size - this.#read), this.#read)
      if (read === 0) break
      this.#held += read
      this.#read += read
    }
  }

  /** Reads on until the buffer is full or the file ends. */
  fillUp(): void {
    this.fill(this.#store.length)
  }

  /** Forgets the first `count` bytes held. */
  drop(count: number): void {
    this.#store.copy(this.#store, 0, count, this.#held)
    this.#held -= count
  }
}

/** Reads `path` (of `size` bytes) by its line layout, a turn at a time. */
function readInPieces(path: string, size: number): Trace {
  const fd = openSync(path, 'r')
  try {
    const window = new FileWindow(fd, size)
    const find = (needle: Buffer, from: number): number => {
      for (;;) {
        const at = window.bytes.indexOf(needle, from)
        if (at >= 0) return at
        const had = window.bytes.length
        window.fill(had + READ_CHUNK)
        if (window.bytes.length === had) return -1
        // The needle may straddle the old end.
        from = Math.max(from, had - needle.length)
      }
    }
    const layout = (): TraceFormatError =>
      new TraceFormatError(
        path,
        '',
        'layout',
        `the file is ${megabytes(size)}, too large to read in one piece, and not in the line layout reagent-flow writes ` +
          `(2-space indent, one turn between "    {" and "    }"). Write it again with reagent-flow, or load it with a JSON stream parser`,
      )

    const open = find(TURNS_OPEN, 0)
    if (open < 0 || window.bytes[0] !== 0x7b /* { */) throw layout()
    const before = window.bytes.toString('utf8', 1, open).replace(/,\s*$/, '')
    let cursor = open + TURNS_OPEN.length
    const turns: Turn[] = []
    for (;;) {
      window.fillUp()
      let buffer = window.bytes
      if (buffer.toString('latin1', cursor, cursor + 4) === '\n  ]' || buffer.toString('latin1', cursor, cursor + 1) === ']') break
      // Every whole turn in the buffer, parsed as one array: one native parse per chunk, not per turn.
      let close = buffer.lastIndexOf(TURN_CLOSE)
      while (close < cursor) {
        const had = buffer.length
        window.fill(had + Math.max(READ_CHUNK, had))
        buffer = window.bytes
        if (buffer.length === had) throw layout()
        close = buffer.lastIndexOf(TURN_CLOSE)
      }
      const end = close + TURN_CLOSE.length
      const text = buffer.toString('utf8', cursor, end)
      let parsed: Turn[]
      try {
        parsed = JSON.parse(`[${text.startsWith(',') ? text.slice(1) : text}]`) as Turn[]
      } catch (error) {
        throw new TraceFormatError(path, `turns[${turns.length}]`, 'json', `the turns from here on are not JSON (${(error as Error).message})`, {
          cause: error,
        })
      }
      for (const turn of parsed) turns.push(turn)
      cursor = end
      window.fill(cursor + 1)
      if (window.bytes[cursor] === 0x2c /* , */) cursor += 1
      // What was read is done with: keep the bytes from the next turn on.
      window.drop(cursor)
      cursor = 0
    }
    const closeAt = window.bytes.toString('latin1', cursor, cursor + 1) === ']' ? cursor : find(TURNS_CLOSE, cursor)
    window.fill(Number.MAX_SAFE_INTEGER)
    const buffer = window.bytes
    const after = buffer.toString('utf8', closeAt + (buffer[closeAt] === 0x5d ? 1 : TURNS_CLOSE.length))
    let fields: Record<string, unknown>
    try {
      fields = JSON.parse(`{${before}${before.trim() === '' ? '' : ','}"turns":[]${after}`) as Record<string, unknown>
    } catch (error) {
      throw new TraceFormatError(path, '', 'json', `the file is not JSON around its turns (${(error as Error).message})`, { cause: error })
    }
    fields.turns = turns
    return validateTrace(fields, path)
  } finally {
    closeSync(fd)
  }
}

/**
 * Reads and validates the trace file at `path`, of any size, with every
 * call's full message list. A missing file is a `TraceNotFoundError` with
 * `hint`; a file that is not a trace, or too large for free memory, a
 * `TraceFormatError`; a file-system failure a `TraceFileError`.
 */
export function readTraceFile(path: string, hint: string, name?: string): Trace {
  const size = fileSize(path, hint, name)
  checkMemory(path, size)
  let trace: Trace
  if (size <= WHOLE_FILE_LIMIT) {
    let text: string
    const fd = openFile(path)
    try {
      const bytes = Buffer.allocUnsafe(fstatSync(fd).size)
      let read = 0
      while (read < bytes.length) {
        const n = readSync(fd, bytes, read, bytes.length - read, read)
        if (n === 0) break
        read += n
      }
      text = bytes.toString('utf8', 0, read)
    } finally {
      closeSync(fd)
    }
    trace = parseTrace(text, path)
  } else {
    trace = readInPieces(path, size)
  }
  expandMessages(trace.turns, path)
  return trace
}

function openFile(path: string): number {
  try {
    return openSync(path, 'r')
  } catch (error) {
    throw new TraceFileError(path, 'read', error)
  }
}
