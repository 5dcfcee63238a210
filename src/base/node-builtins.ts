/**
 * Node built-ins that only some sessions need, required the first time they
 * are asked for instead of imported: `node:worker_threads`, `node:os` and
 * `node:v8` each cost 1-4 ms to load, in every test file that imports
 * reagent-flow, and a test that writes no file never needs them.
 */
import { createRequire } from 'node:module'
import type * as Os from 'node:os'
import type * as V8 from 'node:v8'
import type * as WorkerThreads from 'node:worker_threads'

const require = createRequire(import.meta.url)
let workerThreads: typeof WorkerThreads | undefined
let os: typeof Os | undefined
let v8: typeof V8 | undefined

/** This thread's id (0 on the main thread), and whether it is the main thread. */
export function currentThread(): { threadId: number; isMainThread: boolean } {
  workerThreads ??= require('node:worker_threads') as typeof WorkerThreads
  return { threadId: workerThreads.threadId, isMainThread: workerThreads.isMainThread }
}

export function hostName(): string {
  os ??= require('node:os') as typeof Os
  return os.hostname()
}

export function heapStatistics(): V8.HeapInfo {
  v8 ??= require('node:v8') as typeof V8
  return v8.getHeapStatistics()
}
