/**
 * Multi-agent chains: a trace together with the traces of the agents it
 * started (sessions opened inside it: sub-agents, handoffs), read from a
 * trace directory and linked by `parent_trace_id`, as a tree.
 *
 *   ChainNode                           one trace in the tree: find, get, flatten (and every assertion and helper)
 *   linkChain(root, files, skipped)     links a root's descendants, reading only them whole
 *   loadChain(idOrName, { traceDir })   scans the directory, finds the root, links it
 */
import { TraceAssertions } from '../assert/trace-assertions.js'
import { join } from 'node:path'
import { AgentAssertionError, AmbiguousTraceError, TraceNotFoundError } from '../errors/index.js'
import { pushTo } from '../base/list-map.js'
import { plural } from '../report/format-value.js'
import {
  DEFAULT_TRACE_DIR,
  loadTraceOrSkip,
  scanTraceDirectory,
  TRACE_FILE_SUFFIX,
  type SkippedFile,
  type TraceFieldsFile,
  type TraceFile,
} from '../storage/index.js'
import type { Session } from '../session/session.js'
import type { Trace } from '../trace/types.js'
import { warn } from '../warnings/warnings.js'

export interface LoadChainOptions {
  /** Directory of the trace files. Default: `".reagent"`. @example { traceDir: 'test/.traces' } */
  traceDir?: string
}

const OPTION_NAMES: ReadonlySet<string> = new Set(['traceDir'])

/** Links a child to its parent (set by ChainNode, which keeps its children private); only loadChain builds trees. */
let adopt: (parent: ChainNode, child: ChainNode) => void

/** One trace of a chain, with the traces of the agents it started. */
export class ChainNode extends TraceAssertions {
  readonly trace: Trace
  /** The file the trace was read from ('' for a session kept in memory only). */
  readonly path: string
  /** The trace that started this one; undefined for the node `loadChain` returned. */
  readonly parent: ChainNode | undefined
  readonly #children: ChainNode[] = []

  constructor(file: TraceFile, parent: ChainNode | undefined) {
    // Every assertion works on any agent of the chain: chain.get('billing-agent').assertCalled('issue_refund').
    super()
    this.trace = file.trace
    this.path = file.path
    this.parent = parent
  }

  get name(): string {
    return this.trace.name
  }

  get traceId(): string {
    return this.trace.trace_id
  }

  /** The agents this one started, in the order they started. */
  get children(): readonly ChainNode[] {
    return this.#children
  }

  /** 0 for the root, 1 for its children, and so on. */
  get depth(): number {
    return this.parent === undefined ? 0 : this.parent.depth + 1
  }

  /** This node and all its descendants: depth first, each parent before its children, siblings in start order. */
  flatten(): ChainNode[] {
    const out: ChainNode[] = []
    const visit = (node: ChainNode): void => {
      out.push(node)
      for (const child of node.#children) visit(child)
    }
    visit(this)
    return out
  }

  /** The first node, in `flatten()` order, whose name or trace_id is `nameOrId`. */
  find(nameOrId: string): ChainNode | undefined {
    return this.flatten().find((node) => node.name === nameOrId || node.traceId === nameOrId)
  }

  /**
   * Like `find`, for tests: an agent missing from the chain fails with an
   * `AssertionError` that lists the agents that are in it.
   * @example expect(chain.get('billing-agent').toolNames()).toContain('issue_refund')
   */
  get(nameOrId: string): ChainNode {
    const found = this.find(nameOrId)
    if (found !== undefined) return found
    const agents = this.flatten().map((node) => (node.parent === undefined ? node.name : `${node.name} (under ${node.parent.name})`))
    throw new AgentAssertionError(
      `The chain of "${this.name}" has no agent named "${nameOrId}" (nor a trace with that id). ` +
        `Its agents: ${agents.join(', ')}. Check the name the sub-agent's session() was given, and that it ran inside this agent.`,
      { traceName: this.name, assertion: `no agent "${nameOrId}" in the chain of "${this.name}"` },
    )
  }

  static {
    adopt = (parent, child) => void parent.#children.push(child)
  }
}

function chainOfSession(session: Session<unknown>, parent: ChainNode | undefined): ChainNode {
  const node = new ChainNode({ path: session.path ?? '', trace: session.trace }, parent)
  for (const child of session.children) adopt(node, chainOfSession(child, node))
  return node
}

function checkArguments(idOrName: unknown, options: unknown): LoadChainOptions {
  if (typeof idOrName !== 'string' || idOrName === '') {
    throw new TypeError(
      `loadChain() needs a closed Session, or a trace_id or trace name (a non-empty string), got ${JSON.stringify(idOrName) ?? typeof idOrName}.`,
    )
  }
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`loadChain() options must be an object, got ${options === null ? 'null' : typeof options}.`)
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.has(key)) throw new TypeError(`Unknown loadChain() option "${key}". Valid options: ${[...OPTION_NAMES].join(', ')}.`)
  }
  return options as LoadChainOptions
}

function warnSkipped(dir: string, skipped: readonly SkippedFile[]): void {
  if (skipped.length === 0) return
  warn(
    'REAGENT_READ',
    `loadChain: skipped ${plural(skipped.length, 'file')} in ${dir} that ${skipped.length === 1 ? 'is' : 'are'} not a readable reagent-flow trace: ` +
      `${skipped.map((file) => `${file.path}: ${file.reason}`).join('; ')}. ` +
      `A trace in them, and the traces below it, are not in the chain; loadTrace(path) shows the full error.`,
  )
}

function notFound(files: readonly TraceFieldsFile[], idOrName: string, dir: string): TraceNotFoundError {
  const names = files.map((file) => file.fields.name)
  const listed = names.length > 20 ? `${names.slice(0, 20).join(', ')}, …` : names.join(', ')
  return new TraceNotFoundError(
    join(dir, `*${TRACE_FILE_SUFFIX}`),
    `None of the ${plural(files.length, 'trace')} in ${dir} has the trace_id or name "${idOrName}"` +
      `${files.length === 0 ? '' : ` (names: ${listed})`}. A session's trace is written when session() closes; check the name and traceDir.`,
    idOrName,
  )
}

/** The root's file: a trace_id first, else a trace name; several matches are ambiguous. */
function findRoot(files: readonly TraceFieldsFile[], idOrName: string, dir: string): TraceFieldsFile {
  const byId = files.filter((file) => file.fields.trace_id === idOrName)
  const matches = byId.length > 0 ? byId : files.filter((file) => file.fields.name === idOrName)
  const [only] = matches
  if (only !== undefined && matches.length === 1) return only
  if (matches.length > 1)
    throw new AmbiguousTraceError(
      idOrName,
      matches.map((file) => file.path),
    )
  throw notFound(files, idOrName, dir)
}

/**
 * The tree below `root`: the traces in `files` (a directory known by the
 * fields of each file, see scanTraceDirectory) that it started, recursively.
 * Only the traces linked into the tree are read whole; one that turns out
 * damaged is added to `skipped`, and the traces below it are left out.
 * The core of loadChain, and of `reagent-flow tree`, which has its files already.
 */
export function linkChain(root: TraceFile, files: readonly TraceFieldsFile[], skipped: SkippedFile[]): ChainNode {
  const childrenOf = new Map<string, TraceFieldsFile[]>()
  for (const file of files) {
    const parentId = file.fields.parent_trace_id
    if (typeof parentId === 'string' && parentId !== file.fields.trace_id) pushTo(childrenOf, parentId, file)
  }
  for (const siblings of childrenOf.values()) {
    siblings.sort((a, b) => a.fields.started_at - b.fields.started_at || a.fields.name.localeCompare(b.fields.name))
  }

  // `linked` guards against damaged files whose parent links form a loop.
  const linked = new Set<string>([root.path])
  const build = (file: TraceFile, parent: ChainNode | undefined): ChainNode => {
    const node = new ChainNode(file, parent)
    for (const child of childrenOf.get(file.trace.trace_id) ?? []) {
      if (linked.has(child.path)) continue
      linked.add(child.path)
      const trace = loadTraceOrSkip(child.path, skipped)
      if (trace !== undefined) adopt(node, build({ path: child.path, trace }, node))
    }
    return node
  }
  return build(root, undefined)
}

/**
 * Reads the trace `idOrName` from `traceDir` with every trace it started,
 * recursively (children by `parent_trace_id`), and returns it as the root of
 * a tree of `ChainNode`s. `idOrName` is a trace_id, or else a trace name; a
 * name matching several files is an `AmbiguousTraceError`, none a
 * `TraceNotFoundError` naming the directory searched. The directory is read
 * as `reagent-flow list` reads it, at the two ends of each file, and only
 * the traces of the chain are read whole. Files that are not readable traces
 * are skipped with one `REAGENT_READ` warning.
 *
 * @example
 * const chain = loadChain('support-agent', { traceDir: 'test/.traces' })
 * expect(chain.get('billing-agent').toolNames()).toContain('issue_refund')
 */
export function loadChain(idOrName: string, options?: LoadChainOptions): ChainNode
/**
 * The chain of a closed session, from memory: the session and the sessions
 * opened inside it (its `children`), recursively. No file is read, so a
 * test asserting on its own sub-agents never sees another test's runs.
 *
 * @example
 * const s = await session('support-agent', () => supportAgent(ticket))
 * loadChain(s).get('billing-agent').assertCalled('issue_refund')
 */
export function loadChain(session: Session<unknown>): ChainNode
export function loadChain(source: string | Session<unknown>, options?: LoadChainOptions): ChainNode {
  if (typeof source === 'object' && source !== null && 'children' in source && 'trace' in source) return chainOfSession(source, undefined)
  const idOrName = source as string
  const { traceDir = DEFAULT_TRACE_DIR } = checkArguments(idOrName, options)
  const directory = scanTraceDirectory(traceDir)
  if (!directory.exists) {
    throw new TraceNotFoundError(
      join(traceDir, `*${TRACE_FILE_SUFFIX}`),
      `The directory ${traceDir} does not exist: record the sessions with { traceDir: ${JSON.stringify(traceDir)} }, or check traceDir (default ${DEFAULT_TRACE_DIR}).`,
      idOrName,
    )
  }
  const { traces: files, skipped } = directory
  // Also when the root is not found: a skipped file may be why.
  try {
    const root = findRoot(files, idOrName, traceDir)
    const trace = loadTraceOrSkip(root.path, skipped)
    if (trace === undefined)
      throw notFound(
        files.filter((file) => file !== root),
        idOrName,
        traceDir,
      )
    return linkChain({ path: root.path, trace }, files, skipped)
  } finally {
    warnSkipped(traceDir, skipped)
  }
}
