/**
 * The runs of one test, for the results file: the sessions its test scope
 * recorded (session-figures.ts), folded so that one run is one agent run.
 *
 * - A session opened inside another session of the test (a sub-agent, a
 *   handoff) is part of that session's run: its turns, tool calls, tokens
 *   and dollars count as the agent's.
 * - A helper run, `<run> > user` (a simulated user), `<run> > judge` (a
 *   judge: toReachGoal's, judge()'s) or `<run> > tools` (the simulated
 *   tools' model), is part of the run `<run>`: its parent when it is that
 *   run's child (as reagent-flow opens them), else the latest run of that
 *   name that closed before it (`<run> > goal`, as judges were named before
 *   they became children). Its tokens and dollars count as the user's, the
 *   judge's or the tools' (`by_role`), never as the agent's turns, and so
 *   do those of the sessions opened inside it.
 * - Every other session is a run of its own: each run of a `repeat()` run
 *   set, each agentSession of the test.
 */
import { relative, sep } from 'node:path'
import type { RoleFigures, RunResult } from '../results/types.js'
import type { SessionFigures } from './session-figures.js'

type Role = 'agent' | 'user' | 'judge' | 'tools'

const ROLE_SUFFIXES: ReadonlyArray<[string, Role]> = [
  [' > user', 'user'],
  [' > judge', 'judge'],
  [' > tools', 'tools'],
  [' > goal', 'judge'],
]

/** The role `session` has as a helper of `parent` (named `<parent name> > <role>`), if it is one. */
function helperRole(session: SessionFigures, parent: SessionFigures): Role | undefined {
  return ROLE_SUFFIXES.find(([suffix]) => session.name === `${parent.name}${suffix}`)?.[1]
}

interface Folding {
  root: SessionFigures
  roles: Map<Role, SessionFigures[]>
}

/** Sums of per-token prices carry float noise (0.00012 + 0.0026 = 0.0027199999999999998): kept to 12 decimals, far below a cent. */
function sum(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((value): value is number => value !== null)
  return known.length === 0 ? null : Math.round(known.reduce((total, value) => total + value, 0) * 1e12) / 1e12
}

function figuresOfRole(sessions: readonly SessionFigures[]): RoleFigures {
  return { tokens: sum(sessions.map((s) => s.tokens)), usd: sum(sessions.map((s) => s.usd)) }
}

/** A path relative to the vitest root with `/` separators, as the results file keeps paths. */
export function rootRelative(root: string, path: string): string {
  return relative(root, path).split(sep).join('/')
}

/** The run a user or judge session belongs to: the latest run named as its name says, closed before it. */
function ownerByName(session: SessionFigures, runs: readonly Folding[]): [Folding, Role] | undefined {
  for (const [suffix, role] of ROLE_SUFFIXES) {
    if (!session.name.endsWith(suffix)) continue
    const owner = session.name.slice(0, -suffix.length)
    const run = runs.findLast((candidate) => candidate.root.name === owner)
    if (run !== undefined) return [run, role]
  }
  return undefined
}

export function runsOfTest(sessions: readonly SessionFigures[], root: string): RunResult[] {
  const runs: Folding[] = []
  const runOfTrace = new Map<string, Folding>()
  // Children close before their parent: find each session's run once every session is known.
  const byId = new Map(sessions.map((session) => [session.trace_id, session]))
  const topOf = (session: SessionFigures): SessionFigures => {
    let top = session
    // At most one step per session: parent ids a user gave (parentTraceId) can never make it loop.
    for (let steps = 0, parent = byId.get(top.parent_trace_id ?? ''); parent !== undefined && steps < sessions.length; steps++) {
      top = parent
      parent = byId.get(parent.parent_trace_id ?? '')
    }
    return top
  }
  const pending: SessionFigures[] = []
  for (const session of sessions) {
    if (topOf(session) !== session) pending.push(session)
    else {
      const owned = ownerByName(session, runs)
      if (owned === undefined) {
        const run: Folding = { root: session, roles: new Map([['agent', [session]]]) }
        runs.push(run)
        runOfTrace.set(session.trace_id, run)
      } else {
        const [run, role] = owned
        run.roles.set(role, [...(run.roles.get(role) ?? []), session])
        runOfTrace.set(session.trace_id, run)
      }
    }
  }
  // A pending session's role: that of its nearest ancestor (itself included) that is a helper of its own parent, else that of its top session.
  const roleOf = (session: SessionFigures, run: Folding): Role => {
    for (let at = session, steps = 0; steps < sessions.length; steps++) {
      const parent = byId.get(at.parent_trace_id ?? '')
      if (parent === undefined) break
      const role = helperRole(at, parent)
      if (role !== undefined) return role
      at = parent
    }
    const top = topOf(session)
    return [...run.roles].find(([, members]) => members.includes(top))?.[0] ?? 'agent'
  }
  for (const session of pending) {
    const run = runOfTrace.get(topOf(session).trace_id)
    if (run === undefined) continue
    const role = roleOf(session, run)
    run.roles.set(role, [...(run.roles.get(role) ?? []), session])
  }
  return runs.map(({ root: top, roles }) => resultOf(top, roles, root))
}

function resultOf(top: SessionFigures, roles: ReadonlyMap<Role, SessionFigures[]>, root: string): RunResult {
  const all = [...roles.values()].flat()
  const agent = roles.get('agent') ?? []
  const result: RunResult = {
    name: top.name,
    status: top.status,
    trace: top.path === null ? null : rootRelative(root, top.path),
    tokens: sum(all.map((s) => s.tokens)),
    usd: sum(all.map((s) => s.usd)),
    turns: agent.reduce((n, s) => n + s.turns, 0),
    tool_calls: agent.reduce((n, s) => n + s.tool_calls, 0),
    duration_ms: top.duration_ms,
  }
  const user = roles.get('user')
  const judge = roles.get('judge')
  const tools = roles.get('tools')
  if (user === undefined && judge === undefined && tools === undefined) return result
  // Key order as the schema lists the fields: by_role after usd.
  const { turns, tool_calls, duration_ms, ...head } = result
  return {
    ...head,
    by_role: {
      agent: figuresOfRole(agent),
      ...(user === undefined ? {} : { user: figuresOfRole(user) }),
      ...(judge === undefined ? {} : { judge: figuresOfRole(judge) }),
      ...(tools === undefined ? {} : { tools: figuresOfRole(tools) }),
    },
    turns,
    tool_calls,
    duration_ms,
  }
}
