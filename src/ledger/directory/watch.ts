/**
 * Keeps the index current with the files other processes write in the trace
 * directory (session() in tests, `reagent-flow grade`): a file system watch
 * on the directory, whose events are gathered for a few milliseconds (one
 * atomic write is several events) and handed over as the names that changed;
 * and, because a watch can drop events when thousands of files land at once,
 * a listing of the directory every `rescanMs` that hands over the names that
 * appeared or went away since.
 */
import { watch, type FSWatcher } from 'node:fs'
import { basename } from 'node:path'
import { listTraceFiles } from '../../storage.js'

export interface DirectoryWatch {
  close(): void
}

export interface WatchOptions {
  /** Called with the file names (not paths) that may have changed. */
  onChange: (names: ReadonlySet<string>) => void
  /** The names of the trace files the index holds now, for the rescan to compare with. */
  known: () => ReadonlySet<string>
  /** Default: 50 ms. */
  settleMs?: number
  /** Default: 30 s; 0 turns the rescan off. */
  rescanMs?: number
}

export function watchDirectory(dir: string, { onChange, known, settleMs = 50, rescanMs = 30_000 }: WatchOptions): DirectoryWatch {
  let pending = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  const flush = (): void => {
    timer = undefined
    const names = pending
    pending = new Set()
    onChange(names)
  }
  let watcher: FSWatcher | undefined
  try {
    watcher = watch(dir, { persistent: false }, (_event, name) => {
      if (name === null) return
      pending.add(name.toString())
      timer ??= setTimeout(flush, settleMs)
    })
    // A watch that breaks (the directory removed) leaves the rescan to find what changed.
    watcher.on('error', () => watcher?.close())
  } catch {
    watcher = undefined
  }
  const rescan =
    rescanMs > 0
      ? setInterval(() => {
          const now = new Set((listTraceFiles(dir) ?? []).map((path) => basename(path)))
          const before = known()
          const changed = new Set<string>()
          for (const name of now) if (!before.has(name)) changed.add(name)
          for (const name of before) if (!now.has(name)) changed.add(name)
          if (changed.size > 0) onChange(changed)
        }, rescanMs).unref()
      : undefined
  return {
    close() {
      watcher?.close()
      if (timer !== undefined) clearTimeout(timer)
      if (rescan !== undefined) clearInterval(rescan)
    },
  }
}
