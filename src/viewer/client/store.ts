/** The rows of the Runs page as the page knows them now, kept current by the source's changes. */
import type { RunsDelta, RunsPayload, RunSummary, SkippedEntry } from '../types.js'
import type { Source } from './source.js'

export class RunStore {
  readonly source: Source
  dir = ''
  pricesAsOf = ''
  version = 0
  readonly byId = new Map<string, RunSummary>()
  skipped: SkippedEntry[] = []
  /** Ids that changed in the last update (the page marks them). */
  fresh = new Set<string>()
  readonly #listeners = new Set<() => void>()

  constructor(source: Source) {
    this.source = source
  }

  get runs(): RunSummary[] {
    return [...this.byId.values()]
  }

  #take(payload: RunsPayload): void {
    this.dir = payload.dir
    this.pricesAsOf = payload.prices_as_of
    this.version = payload.version
    this.skipped = payload.skipped
    this.byId.clear()
    for (const run of payload.runs) this.byId.set(run.id, run)
  }

  async load(): Promise<void> {
    this.#take(await this.source.runs())
    this.fresh = new Set()
  }

  /** Starts following the source's changes. */
  follow(): () => void {
    return this.source.subscribe(
      (delta) => this.apply(delta),
      () => void this.load().then(() => this.#notify()),
    )
  }

  apply(delta: RunsDelta): void {
    if (delta.version <= this.version) return
    this.version = delta.version
    this.fresh = new Set(delta.upsert.map((run) => run.id))
    for (const run of delta.upsert) this.byId.set(run.id, run)
    for (const id of delta.remove) this.byId.delete(id)
    this.skipped = delta.skipped
    this.#notify()
  }

  #notify(): void {
    for (const listener of this.#listeners) listener()
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}
