/**
 * A recursive watch that leaves some folders out, for Linux, where Node's
 * `fs.watch(dir, { recursive: true })` is a JavaScript walk of the whole tree
 * that lists a folder again at each file created in it and stats every file
 * it holds: under a folder of 100,000 runs the ledger writes to (`ledger/`),
 * every write cost a listing of that folder. Here each folder the caller
 * wants is one inotify watch of its own (non-recursive, native); a folder
 * created later is added when its parent reports it (its files written
 * before then reported at once); the folders `descend`
 * refuses are never watched nor listed.
 */
import { readdirSync, statSync, watch, type Dirent, type FSWatcher } from 'node:fs'
import { join } from 'node:path'

export interface FolderTreeWatch {
  close(): void
}

/** Watches `root` and the folders below it that `descend` accepts (paths relative, `/` between folders); `onEvent` gets relative paths. */
export function watchFolderTree(root: string, descend: (folder: string) => boolean, onEvent: (path: string) => void): FolderTreeWatch {
  const watchers = new Map<string, FSWatcher>()
  let closed = false
  /** Watches `folder` and its subfolders; `announce`: a folder that appeared after the start, whose files (written before its watch) are reported. */
  const add = (folder: string, announce: boolean): void => {
    if (closed || watchers.has(folder) || (folder !== '' && !descend(folder))) return
    let watcher: FSWatcher
    try {
      watcher = watch(join(root, folder), { persistent: false }, (event, name) => {
        if (name === null) return
        const path = folder === '' ? name.toString() : `${folder}/${name.toString()}`
        onEvent(path)
        // A name that appeared may be a folder: watch it too (its files written before then are the rescan's to find).
        if (event === 'rename' && descend(path) && isFolder(join(root, path))) add(path, true)
      })
    } catch {
      return // Gone already, or not readable: the rescan covers it.
    }
    watcher.on('error', () => {
      watcher.close()
      watchers.delete(folder)
    })
    watchers.set(folder, watcher)
    for (const entry of entriesOf(join(root, folder))) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`
      if (entry.isDirectory()) add(path, announce)
      else if (announce) onEvent(path)
    }
  }
  add('', false)
  return {
    close() {
      closed = true
      for (const watcher of watchers.values()) watcher.close()
      watchers.clear()
    },
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function entriesOf(path: string): Dirent[] {
  try {
    return readdirSync(path, { withFileTypes: true })
  } catch {
    return []
  }
}
