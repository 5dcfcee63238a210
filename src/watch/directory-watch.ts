/**
 * Watching a trace directory for the files other processes write (session()
 * in tests, `reagent-flow grade`, a run's journal growing turn by turn): the
 * one watcher of reagent-flow, used by the run ledger's directory store and
 * by the viewer.
 *
 * Two sources, one stream of changed paths:
 * - a file system watch (recursive when asked), whose events are gathered
 *   for `settleMs` (one atomic write is several events);
 * - because a watch can drop events when thousands of files land at once
 *   (and a recursive watch can miss a folder created and filled at once), a
 *   listing every `rescanMs` compared with the one before (and with what the
 *   caller holds, `known`): paths that appeared, went away, or (for
 *   listings with signatures) changed.
 *
 * Paths are relative to the directory, `/` between folders.
 */
import { watch, type FSWatcher } from 'node:fs'
import { sep } from 'node:path'
import { watchFolderTree } from './folder-tree-watch.js'

export interface DirectoryWatch {
  /** Lists the directory now and reports what changed since the last listing (tests, and callers that know something happened). */
  rescan(): void
  close(): void
}

export interface WatchOptions {
  /** Called with the paths that may have changed. */
  onChange: (paths: ReadonlySet<string>) => void
  /** What a rescan sees: relative path -> a signature of its version (`''` when only presence matters). */
  list: () => ReadonlyMap<string, string>
  /** The paths the caller holds now: a listed path it does not hold, or one it holds that is not listed, is reported. */
  known?: () => ReadonlySet<string>
  /** Only events for paths this accepts are reported. Default: all. */
  accept?: (path: string) => boolean
  /** Watch folders below the directory too. Default: false. */
  recursive?: boolean
  /** With `recursive`: the folders (relative paths) worth watching; the others are neither watched nor listed (on Linux; elsewhere their events are left to `accept`). Default: all. */
  descend?: (folder: string) => boolean
  /** Default: 50 ms. */
  settleMs?: number
  /** Default: 30 s; 0 turns the rescan off. */
  rescanMs?: number
}

export function watchDirectory(dir: string, options: WatchOptions): DirectoryWatch {
  const { onChange, list, known, accept = () => true, recursive = false, descend, settleMs = 50, rescanMs = 30_000 } = options
  let pending = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let closed = false
  const flush = (): void => {
    timer = undefined
    const paths = pending
    pending = new Set()
    if (!closed && paths.size > 0) onChange(paths)
  }
  const onEvent = (path: string): void => {
    if (!accept(path)) return
    pending.add(path)
    timer ??= setTimeout(flush, settleMs)
  }
  let watcher: { close(): void } | undefined
  if (recursive && descend !== undefined && process.platform === 'linux') {
    // Node's recursive watch on Linux walks every folder, those `descend` refuses included (folder-tree-watch.ts).
    watcher = watchFolderTree(dir, descend, onEvent)
  } else {
    try {
      const native: FSWatcher = watch(dir, { persistent: false, recursive }, (_event, name) => {
        if (name !== null) onEvent(name.toString().split(sep).join('/'))
      })
      // A watch that breaks (the directory removed) leaves the rescan to find what changed.
      native.on('error', () => native.close())
      watcher = native
    } catch {
      watcher = undefined
    }
  }

  let previous = list()
  const rescan = (): void => {
    if (closed) return
    const now = list()
    const changed = new Set<string>()
    for (const [path, signature] of now) if (previous.get(path) !== signature) changed.add(path)
    for (const path of previous.keys()) if (!now.has(path)) changed.add(path)
    if (known !== undefined) {
      const held = known()
      for (const path of now.keys()) if (!held.has(path)) changed.add(path)
      for (const path of held) if (!now.has(path)) changed.add(path)
    }
    previous = now
    if (changed.size > 0) onChange(changed)
  }
  const interval = rescanMs > 0 ? setInterval(rescan, rescanMs).unref() : undefined
  return {
    rescan,
    close() {
      closed = true
      watcher?.close()
      if (timer !== undefined) clearTimeout(timer)
      if (interval !== undefined) clearInterval(interval)
    },
  }
}
