/**
 * The files a test owns beside its runs, goldens and tool contracts, as the
 * reporter sums them up at the end of a run (reporter.ts): counted by how they
 * ended, those the run wrote or rewrote, and those no test asks for any more.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { TestModule } from 'vitest/node'
import { shownPath } from '../golden/index.js'
import type { UpdateMode } from '../golden/update-mode.js'
import type { GoldenEntry } from '../session/test-scope.js'
import { CONTRACT_FILE_SUFFIX, fileStem, goldenFolders, removeQuietly, TRACE_FILE_SUFFIX } from '../storage/index.js'
import { goldenOutcomes } from './golden-outcomes.js'
import { META_KEY, type ReagentTaskMeta } from './test-scope.js'

type Outcome = GoldenEntry['outcome']

const SUMMARY_ORDER: ReadonlyArray<[Outcome | 'obsolete' | 'removed', string]> = [
  ['matched', 'matched'],
  ['unchanged', 'unchanged'],
  ['written', 'written'],
  ['updated', 'updated'],
  ['reformatted', 'format updated'],
  ['obsolete', 'obsolete'],
  ['removed', 'removed'],
  ['failed', 'failed'],
  ['missing', 'missing'],
]

interface ModuleGoldens {
  used: Set<string>
  /** Stems a test that did not run, or did not finish, could own. */
  unranStems: string[]
  ranInFull: boolean
}

/** Files a test owns, placed and reported alike: goldens and tool contracts. */
interface FileKind {
  /** The summary line's label, right-aligned as vitest aligns its own. */
  label: string
  /** One file, and several, in sentences. */
  one: string
  many: string
  /** Their folder in the trace directory, and their files' suffix. */
  folder: string
  suffix: string
  entriesOf: (meta: ReagentTaskMeta | undefined) => readonly GoldenEntry[]
}

export const FILE_KINDS: readonly FileKind[] = [
  { label: '     Goldens', one: 'golden', many: 'goldens', folder: 'golden', suffix: TRACE_FILE_SUFFIX, entriesOf: (meta) => meta?.goldens ?? [] },
  {
    label: '   Contracts',
    one: 'tool contract',
    many: 'tool contracts',
    folder: 'contracts',
    suffix: CONTRACT_FILE_SUFFIX,
    entriesOf: (meta) => meta?.contracts ?? [],
  },
]

interface KindFiles {
  counts: Map<string, number>
  /** Written or rewritten by the run, with how: the tests printed nothing of them (onInit). */
  changed: Array<{ path: string; how: string }>
  obsolete: string[]
  removed: string[]
}

interface RunFacts {
  /** The trace directory, absolute. */
  root: string
  projectRoot: string
  modules: ReadonlyArray<TestModule>
  update: UpdateMode
  allFiles: ReadonlySet<string>
}

export function filesOf(kind: FileKind, { root, projectRoot, modules, update, allFiles }: RunFacts): KindFiles {
  const counts = new Map<string, number>()
  const add = (key: string, n = 1): void => void counts.set(key, (counts.get(key) ?? 0) + n)
  const byModule = new Map<string, ModuleGoldens>()
  const changed: Array<{ path: string; how: string }> = []
  for (const module of modules) {
    const goldens: ModuleGoldens = { used: new Set(), unranStems: [], ranInFull: true }
    for (const test of module.children.allTests()) {
      const ours = (test.meta() as Record<string, unknown>)[META_KEY] as ReagentTaskMeta | undefined
      const state = test.result().state
      for (const entry of goldenOutcomes(kind.entriesOf(ours), state === 'passed')) {
        goldens.used.add(resolve(entry.path))
        add(entry.outcome)
        const how = CHANGED_WORDS.get(entry.outcome)
        if (how !== undefined) changed.push({ path: entry.path, how })
      }
      if (state !== 'passed' && state !== 'failed') goldens.ranInFull = false
      // A test that failed may have stopped before its assertion: what it owns is not obsolete.
      if (state !== 'passed') goldens.unranStems.push(fileStem(test.fullName))
    }
    byModule.set(resolve(module.moduleId), goldens)
  }
  const filteredToFiles = allFiles.size > modules.length
  const obsolete: string[] = []
  const removed: string[] = []
  for (const { relative, files } of goldenFolders(resolve(root, kind.folder), kind.suffix)) {
    if (relative === '') continue
    const testFile = resolve(projectRoot, relative)
    const goldens = byModule.get(testFile)
    let stale: string[]
    let removable: boolean
    if (goldens !== undefined) {
      stale = files.filter((file) => !goldens.used.has(resolve(file)) && !goldens.unranStems.some((stem) => baseStem(file, kind.suffix).startsWith(stem)))
      removable = goldens.ranInFull
    } else if (!allFiles.has(testFile) && !existsSync(testFile)) {
      stale = files
      removable = !filteredToFiles
    } else {
      continue
    }
    for (const file of stale) {
      if (update === 'all' && removable) {
        removeQuietly(file)
        removed.push(file)
      } else obsolete.push(file)
    }
  }
  add('obsolete', obsolete.length)
  add('removed', removed.length)
  return { counts, changed, obsolete, removed }
}

/** The kind's summary line, then each file the run wrote or rewrote. */
export function logSummary(log: (line: string) => void, kind: FileKind, { counts, changed }: KindFiles): void {
  const parts = SUMMARY_ORDER.filter(([key]) => (counts.get(key) ?? 0) > 0).map(([key, word]) => `${counts.get(key)} ${word}`)
  if (parts.length > 0) log(`${kind.label}  ${parts.join(' | ')}`)
  if (changed.length === 0) return
  for (const { path, how } of changed) log(`  ${how} ${shownPath(path)}`)
  log(`  Review ${changed.length === 1 ? `this ${kind.one}` : `these ${kind.many}`} and commit ${changed.length === 1 ? 'it' : 'them'}.`)
}

/** The kind's files no test asks for: listed, or said to be removed. */
export function logObsolete(log: (line: string) => void, kind: FileKind, { obsolete, removed }: KindFiles): void {
  if (obsolete.length > 0) {
    log('')
    log(`Obsolete ${kind.many} (no test asks for them; run vitest -u to remove them):`)
    for (const file of obsolete) log(`  ${shownPath(file)}`)
  }
  for (const file of removed) log(`  removed obsolete ${kind.one} ${shownPath(file)}`)
}

/** The goldens a run changed, each listed after the summary line with how it changed. */
const CHANGED_WORDS: ReadonlyMap<Outcome, string> = new Map([
  ['written', 'written'],
  ['updated', 'updated'],
  ['reformatted', 'format updated'],
])

function baseStem(file: string, suffix: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1)
  return name.endsWith(suffix) ? name.slice(0, -suffix.length) : name
}
