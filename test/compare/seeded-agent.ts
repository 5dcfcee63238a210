import type { Run } from '../../src/compare/index.js'

/**
 * A seeded agent: `runs` runs that each pass with probability `passRate`, drawn from mulberry32 seeded
 * with `seed`, so a test sees the same runs every time (and a reader can count them).
 */
export function seededRuns(passRate: number, runs: number, seed: number): Run[] {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return Array.from({ length: runs }, () => ({ passed: next() < passRate }))
}
