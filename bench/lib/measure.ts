/**
 * Timing that survives a noisy machine: every measurement is the median of
 * several runs after warm-up, with a full GC before each run when the process
 * was started with --expose-gc (npm run bench does that). Ratios compare two
 * medians taken in the same process, seconds apart, so drift cancels out.
 */

export interface Timing {
  medianMs: number
  minMs: number
  runs: number
}

const gc = (globalThis as { gc?: () => void }).gc

function summarize(samples: number[], runs: number): Timing {
  samples.sort((x, y) => x - y)
  return { medianMs: samples[Math.floor(samples.length / 2)]!, minMs: samples[0]!, runs }
}

/** One timed run, after a full GC when available; awaits `fn` only when it returns a promise. */
function timeRun(fn: () => unknown, into: number[]): void | Promise<void> {
  gc?.()
  const start = performance.now()
  const result = fn()
  if (result instanceof Promise) return result.then(() => void into.push(performance.now() - start))
  into.push(performance.now() - start)
}

export function measure(fn: () => unknown, { runs = 15, warmup = 3 }: { runs?: number; warmup?: number } = {}): Timing {
  for (let i = 0; i < warmup; i++) fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) void timeRun(fn, samples)
  return summarize(samples, runs)
}

export async function measureAsync(fn: () => Promise<unknown>, { runs = 15, warmup = 3 }: { runs?: number; warmup?: number } = {}): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) await timeRun(fn, samples)
  return summarize(samples, runs)
}

/**
 * Measures `ours` and `baseline` interleaved (A, B, A, B, ...), so a burst of
 * load from elsewhere on the machine hits both sides alike.
 */
export function compare(ours: () => unknown, baseline: () => unknown, { runs = 21, warmup = 3 } = {}): { ours: Timing; baseline: Timing } {
  for (let i = 0; i < warmup; i++) {
    ours()
    baseline()
  }
  const a: number[] = []
  const b: number[] = []
  for (let i = 0; i < runs; i++) {
    void timeRun(ours, a)
    void timeRun(baseline, b)
  }
  return { ours: summarize(a, runs), baseline: summarize(b, runs) }
}

/** Heap bytes retained by what `build` returns (after full GCs). Needs --expose-gc. */
export function retainedBytes(build: () => unknown): number {
  if (gc === undefined) return Number.NaN
  gc()
  gc()
  const before = process.memoryUsage().heapUsed
  const kept = build()
  gc()
  gc()
  const after = process.memoryUsage().heapUsed
  // Keep `kept` alive until after the measurement.
  if (kept === Symbol.for('never')) console.log(kept)
  return after - before
}

/** `compare` for an async `ours` (a command run in process), interleaved the same way. */
export async function compareAsync(
  ours: () => Promise<unknown>,
  baseline: () => unknown,
  { runs = 21, warmup = 3 } = {},
): Promise<{ ours: Timing; baseline: Timing }> {
  for (let i = 0; i < warmup; i++) {
    await ours()
    baseline()
  }
  const a: number[] = []
  const b: number[] = []
  for (let i = 0; i < runs; i++) {
    await timeRun(ours, a)
    await timeRun(baseline, b)
  }
  return { ours: summarize(a, runs), baseline: summarize(b, runs) }
}

/**
 * For async calls of a few microseconds to a millisecond: `ours` and
 * `baseline` alternate call by call (the first of each pair alternating too),
 * and each side's figure is the median of its single calls, so a burst of
 * load from elsewhere on the machine lands on both sides alike and does not
 * move the median. `around` wraps each round of `calls` pairs (a session, say).
 */
export async function compareCalls(
  ours: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  { calls = 200, rounds = 12, warmupRounds = 2, around = (round: () => Promise<void>) => round() } = {},
): Promise<{ oursUs: number; baselineUs: number }> {
  const a: number[] = []
  const b: number[] = []
  const timed = async (fn: () => Promise<unknown>, into: number[] | undefined): Promise<void> => {
    const start = performance.now()
    await fn()
    into?.push((performance.now() - start) * 1000)
  }
  for (let round = 0; round < warmupRounds + rounds; round++) {
    const keep = round >= warmupRounds
    gc?.()
    await around(async () => {
      for (let i = 0; i < calls; i++) {
        if (i % 2 === 0) {
          await timed(ours, keep ? a : undefined)
          await timed(baseline, keep ? b : undefined)
        } else {
          await timed(baseline, keep ? b : undefined)
          await timed(ours, keep ? a : undefined)
        }
      }
    })
  }
  const median = (xs: number[]): number => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!
  return { oursUs: median(a), baselineUs: median(b) }
}

/**
 * CPU time (user + system, all threads of the process) of two async
 * workloads, interleaved: for work that happens while a run waits (a timer
 * flushing a journal), which wall time would not see. Medians, in ms.
 */
export async function compareCpu(
  ours: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  { runs = 9, warmup = 2 } = {},
): Promise<{ ours: number; baseline: number }> {
  const cpuOf = async (fn: () => Promise<unknown>): Promise<number> => {
    gc?.()
    const before = process.cpuUsage()
    await fn()
    const used = process.cpuUsage(before)
    return (used.user + used.system) / 1000
  }
  for (let i = 0; i < warmup; i++) {
    await cpuOf(ours)
    await cpuOf(baseline)
  }
  const a: number[] = []
  const b: number[] = []
  for (let i = 0; i < runs; i++) {
    a.push(await cpuOf(ours))
    b.push(await cpuOf(baseline))
  }
  return { ours: summarize(a, runs).medianMs, baseline: summarize(b, runs).medianMs }
}
