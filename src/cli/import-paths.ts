/**
 * Where `reagent-flow import` writes each trace: its name's file, and for a
 * name taken already (recursive agents share one) `-2`, `-3`, ... Each file
 * name remembers the next suffix to try, so 20,000 runs of one agent name
 * cost 20,000 look-ups, not 200 million.
 */
import { tracePath } from '../storage/index.js'

export class ImportPaths {
  readonly #dir: string
  readonly #taken = new Set<string>()
  /** Per file taken, the next suffix to try for its name. */
  readonly #nextSuffix = new Map<string, number>()

  constructor(dir: string) {
    this.#dir = dir
  }

  /** A file for a trace named `name` that no earlier trace of this import got. */
  pathFor(name: string): string {
    const first = tracePath(name, { traceDir: this.#dir })
    let path = first
    if (this.#taken.has(first)) {
      let n = this.#nextSuffix.get(first) ?? 2
      do path = tracePath(`${name}-${n++}`, { traceDir: this.#dir })
      while (this.#taken.has(path))
      this.#nextSuffix.set(first, n)
    }
    this.#taken.add(path)
    return path
  }
}
