/**
 * Identifiers and clock readings for traces.
 *
 * Trace ids are ULIDs: sortable by creation time (so `ls` and `list` order
 * runs naturally) and unique across processes without coordination.
 */
import { randomFillSync } from 'node:crypto'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const random = new Uint8Array(10)
let lastMs = -1

function encodeTime(ms: number): string {
  let out = ''
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[ms % 32]! + out
    ms = Math.floor(ms / 32)
  }
  return out
}

function encodeRandom(bytes: Uint8Array): string {
  // 80 bits -> 16 characters of 5 bits, most significant first.
  let out = ''
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out += CROCKFORD[(buffer >> bits) & 31]!
    }
    buffer &= (1 << bits) - 1
  }
  return out
}

/** A new ULID. Ids made in the same millisecond still sort in creation order. */
export function ulid(ms: number = Date.now()): string {
  if (ms <= lastMs) {
    // Monotonic within a millisecond: increment the random part instead of redrawing it.
    for (let i = random.length - 1; i >= 0; i--) {
      if (random[i] !== 255) {
        random[i]! += 1
        break
      }
      random[i] = 0
    }
    ms = lastMs
  } else {
    randomFillSync(random)
    lastMs = ms
  }
  return encodeTime(ms) + encodeRandom(random)
}

/**
 * Wall-clock time in epoch seconds, with microseconds, like Python's `time.time()`.
 * Never an integer: reagent-flow 0.5 reads times as floats, and `JSON.stringify`
 * would write a whole number without a decimal point.
 */
let clock: typeof performance | undefined

export function epochSeconds(): number {
  // Read on first use (the first read of the global `performance` loads node:perf_hooks), then kept:
  // the global is a getter, and this runs twice for every turn recorded.
  clock ??= performance
  const seconds = (clock.timeOrigin + clock.now()) / 1000
  return Number.isInteger(seconds) ? seconds + 0.000001 : seconds
}
