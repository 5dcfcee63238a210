/**
 * The server's Prometheus metrics (`GET /metrics`), with prom-client: requests
 * and their latency by operation and status, requests in flight, store errors
 * by operation, the connection pool of a store that has one, its write queue
 * (depth, batch sizes, writes refused), and the process
 * (prom-client's defaults: CPU, memory, event loop lag, GC). Its own registry,
 * so two servers in one process (tests) count apart. Only `reagent-flow serve`
 * loads this module: prom-client is an optional peer, never read by a plain
 * `import 'reagent-flow'`.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { MetricsSource } from './probes.js'
import type { RequestObserver } from './http-server.js'

/** A pool's connections: open, idle among them, and calls waiting for one. */
export interface PoolUse {
  total: number
  idle: number
  waiting: number
}

/** Seconds: from a cached read (sub-millisecond) to a 64 MB trace.put. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** A store's write queue as the metrics see it (store-writes.ts's WriteQueueView). */
export interface WriteQueueUse {
  readonly depth: number
  watch(watch: { batch(size: number): void; rejected(): void }): void
}

const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256]

export class ServerMetrics implements RequestObserver, MetricsSource {
  readonly registry = new Registry()
  readonly #requests = new Counter({
    name: 'reagent_http_requests_total',
    help: 'Requests answered, by operation and HTTP status.',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  })
  readonly #latency = new Histogram({
    name: 'reagent_http_request_duration_seconds',
    help: 'Time from a request to the last byte of its answer, by operation and HTTP status.',
    labelNames: ['operation', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  })
  readonly #inFlight = new Gauge({
    name: 'reagent_http_requests_in_flight',
    help: 'Requests received and not yet answered.',
    registers: [this.registry],
  })
  readonly #storeErrors = new Counter({
    name: 'reagent_store_errors_total',
    help: 'Store calls that failed, by store operation and kind (unavailable: the store could not be reached or written; internal: anything else).',
    labelNames: ['operation', 'kind'] as const,
    registers: [this.registry],
  })

  constructor() {
    collectDefaultMetrics({ register: this.registry })
  }

  requestStarted(): void {
    this.#inFlight.inc()
  }

  requestFinished(operation: string, status: number, seconds: number): void {
    this.#inFlight.dec()
    const labels = { operation, status: String(status) }
    this.#requests.inc(labels)
    this.#latency.observe(labels, seconds)
  }

  storeError(operation: string, kind: 'unavailable' | 'internal'): void {
    this.#storeErrors.inc({ operation, kind })
  }

  /** Gauges of a store's pool, read at each scrape. */
  watchPool(use: () => PoolUse): void {
    const gauge = (name: string, help: string, pick: (pool: PoolUse) => number): void => {
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(pick(use()))
        },
      })
    }
    gauge('reagent_store_pool_connections', "Connections the store's pool holds open (busy and idle).", (pool) => pool.total)
    gauge('reagent_store_pool_idle_connections', "Connections of the store's pool that no call is using.", (pool) => pool.idle)
    gauge('reagent_store_pool_waiting_calls', "Store calls waiting for one of the pool's connections.", (pool) => pool.waiting)
  }

  /** The store's write queue: its depth (read at each scrape), the size of each batch, the writes refused because it was full. */
  watchWriteQueue(queue: WriteQueueUse): void {
    new Gauge({
      name: 'reagent_ledger_write_queue_depth',
      help: 'Writes (run.begin, run.complete, run.grade) waiting for a batch or in one being committed.',
      registers: [this.registry],
      collect() {
        this.set(queue.depth)
      },
    })
    const sizes = new Histogram({
      name: 'reagent_ledger_write_batch_size',
      help: 'Writes per batch the store committed at once.',
      buckets: BATCH_BUCKETS,
      registers: [this.registry],
    })
    const rejected = new Counter({
      name: 'reagent_ledger_write_rejected_total',
      help: 'Writes answered 503 because the write queue was full (serve --write-queue).',
      registers: [this.registry],
    })
    queue.watch({ batch: (size) => sizes.observe(size), rejected: () => rejected.inc() })
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() }
  }
}
