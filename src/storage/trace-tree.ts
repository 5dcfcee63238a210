/**
 * A trace directory as a tree (read only): the folders that may hold traces
 * (test-file-scoped runs live in `<dir>/<test file>/...`, their goldens in
 * `<dir>/golden/<test file>/...`), and the trace files and journals in them
 * with what identifies a version of each (mtime and size).
 *
 * Nothing outside the directory is ever listed: symbolic links to folders
 * are not followed, and a linked file counts only when what it points at is
 * inside the directory too. Dot files and folders (temporary files of atomic
 * writes, `.git`) and `node_modules` are left out.
 */
import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { JOURNAL_SUFFIX, TRACE_FILE_SUFFIX } from './paths.js'

export interface TreeFile {
  /** Relative to the directory, with `/` between folders: `golden/refund.trace.json`. */
  path: string
  kind: 'trace' | 'journal'
  mtimeMs: number
  size: number
}

export interface TraceTree {
  /** The real path of the directory; null when it does not exist. */
  root: string | null
  /** Folders relative to the directory, `''` for the directory itself, parents before children. */
  folders: string[]
  files: TreeFile[]
}

/** A folder deeper than this is not listed (a loop of bind mounts, a runaway generator). */
const MAX_DEPTH = 32
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules'])

function kindOf(name: string): TreeFile['kind'] | undefined {
  if (name.endsWith(TRACE_FILE_SUFFIX)) return 'trace'
  if (name.endsWith(JOURNAL_SUFFIX)) return 'journal'
  return undefined
}

/** Whether `real` (a real path) is `root` or inside it. */
export function isInsideRoot(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)
}

/** The real path of `path` when it is inside `root` (a real path); undefined when it is not, or is gone. */
export function realPathInside(path: string, root: string): string | undefined {
  try {
    const real = realpathSync(path)
    return isInsideRoot(real, root) ? real : undefined
  } catch {
    return undefined
  }
}

function entriesOf(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
  } catch {
    // A folder removed while listed, or not readable: nothing to show from it.
    return []
  }
}

export interface TreeOptions {
  /** How many folder levels below the directory are listed: 0 lists the directory alone. Default: 32. */
  depth?: number
  /** Read each file's mtime and size (one stat per file). Default: true; without, both are 0. */
  stat?: boolean
}

/** Every trace file and journal under `dir` (see the module comment). Never throws for what is in the directory. */
export function listTraceTree(dir: string, { depth: maxDepth = MAX_DEPTH, stat: withStat = true }: TreeOptions = {}): TraceTree {
  let root: string
  try {
    root = realpathSync(dir)
    if (!statSync(root).isDirectory()) return { root: null, folders: [], files: [] }
  } catch {
    return { root: null, folders: [], files: [] }
  }
  const tree: TraceTree = { root, folders: [], files: [] }
  const visit = (folder: string, depth: number): void => {
    tree.folders.push(folder)
    const absolute = join(root, folder)
    const children: string[] = []
    for (const entry of entriesOf(absolute)) {
      if (entry.name.startsWith('.')) continue
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && depth < Math.min(maxDepth, MAX_DEPTH)) children.push(path)
        continue
      }
      const kind = kindOf(entry.name)
      if (kind === undefined || !(entry.isFile() || entry.isSymbolicLink())) continue
      const full = join(absolute, entry.name)
      if (entry.isSymbolicLink() && realPathInside(full, root) === undefined) continue
      if (!withStat) {
        tree.files.push({ path, kind, mtimeMs: 0, size: 0 })
        continue
      }
      try {
        const stat = entry.isSymbolicLink() ? statSync(full) : lstatSync(full)
        if (stat.isFile()) tree.files.push({ path, kind, mtimeMs: stat.mtimeMs, size: stat.size })
      } catch {
        // Gone between the listing and the stat: the next listing tells.
      }
    }
    for (const child of children.sort()) visit(child, depth + 1)
  }
  visit('', 0)
  tree.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return tree
}

/** `path` relative to `root`, with `/` between folders (as TreeFile paths are). */
export function treePathOf(path: string, root: string): string {
  return relative(root, path).split(sep).join('/')
}
