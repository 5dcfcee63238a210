/**
 * The runs of `npm run bench -- ledger-scale`: a year of a company's agent
 * tests, as the session reporter would have written them, generated in the
 * order they started (so the table is laid out by time, as a live ledger's
 * is). Deterministic for a given count and end time:
 *
 * - 200 agents, Zipf-like (s = 1.1): the top agent has ~17% of the runs, the
 *   last a few thousand of ten million;
 * - started_at over 365 days up to `end`, weekdays busier than weekends, the
 *   team growing over the year, and CI-shaped hours (a nightly build at
 *   02:00 UTC, working-hour peaks);
 * - each agent's tests (3 to 43), a session per test and half-hour CI slot
 *   for two runs in three (a `repeat(5)` shares one), branch main or one of
 *   the week's feature branches, a commit per branch and CI slot;
 * - statuses (about 93% completed, 5% failed, 1% cancelled, runs of the last
 *   quarter hour still active), a quarter of closed runs graded, durations
 *   log-normal around each agent's median, usage summaries of 1 to ~20 turns
 *   over one or two models, memories relied on by one run in twelve.
 */
import type { RunRecord } from '../../src/ledger/run-row.js'
import type { Trace } from '../../src/trace/types.js'

export const SCALE_AGENTS = 200
const DAYS = 365
const DAY = 86_400

/** The UTC hour's share of a day's runs: the nightly build, then the working day's two peaks. */
const HOUR_WEIGHTS = [0.3, 0.5, 3, 0.6, 0.2, 0.2, 0.3, 1, 2, 4, 5, 5, 4, 3, 5, 5, 4, 3, 2, 1.5, 1, 0.6, 0.4, 0.3]

const DOMAINS = ['billing', 'refunds', 'support', 'triage', 'search', 'travel', 'claims', 'onboarding', 'returns', 'scheduling']
const ROLES = ['agent', 'planner', 'router', 'assistant', 'checker', 'writer', 'summarizer', 'reviewer', 'helper', 'bot']
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'gpt-4.1', 'gemini-2.5-flash']
const GOALS = ['Refund order', 'Cancel subscription', 'Rebook flight', 'Close ticket', 'Look up invoice', 'Change address for account', 'Explain charge']
const FEATURES = ['checkout', 'retry', 'prompt', 'tools', 'cache', 'limits', 'memory', 'handoff', 'router', 'fallback', 'eval', 'pricing']

/** splitmix32: small, fast, and the same numbers on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x9e3779b9) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad)
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97)
    return ((z ^ (z >>> 15)) >>> 0) / 4_294_967_296
  }
}

/** A 32-bit hash of numbers and text, for names that must come out the same for the same inputs. */
function hash(...parts: ReadonlyArray<number | string>): number {
  let h = 0x811c9dc5
  for (const part of parts) {
    const text = String(part)
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
    h = Math.imul(h ^ 0x2c, 0x01000193)
  }
  return h >>> 0
}

const hex8 = (n: number): string => n.toString(16).padStart(8, '0')
/** 40 hex digits, like a git commit. */
const sha = (seed: number): string => [0, 1, 2, 3, 4].map((i) => hex8(hash(seed, i))).join('')

interface Agent {
  name: string
  tests: number
  models: readonly string[]
  medianMs: number
  failRate: number
}

/** The name of the agent of Zipf rank `k` (0, the busiest, to 199). */
export function scaleAgentName(k: number): string {
  const name = `${DOMAINS[k % DOMAINS.length]}-${ROLES[Math.floor(k / DOMAINS.length) % ROLES.length]}`
  return k < DOMAINS.length * ROLES.length ? name : `${name}-${Math.floor(k / (DOMAINS.length * ROLES.length)) + 1}`
}

function agents(): Agent[] {
  const pick = random(7)
  return Array.from({ length: SCALE_AGENTS }, (_, k) => ({
    name: scaleAgentName(k),
    tests: 3 + Math.floor(40 / Math.sqrt(k + 1)),
    models: pick() < 0.4 ? [MODELS[k % MODELS.length]!, MODELS[(k + 1) % MODELS.length]!] : [MODELS[k % MODELS.length]!],
    medianMs: 3000 + Math.floor(pick() * 27_000),
    failRate: 0.02 + pick() * 0.08,
  }))
}

/** The cumulative Zipf(s = 1.1) shares of the agents, for a binary search. */
function zipfCdf(n: number): Float64Array {
  const cdf = new Float64Array(n)
  let sum = 0
  for (let k = 0; k < n; k++) {
    sum += 1 / (k + 1) ** 1.1
    cdf[k] = sum
  }
  for (let k = 0; k < n; k++) cdf[k]! /= sum
  return cdf
}

function search(cdf: Float64Array, u: number): number {
  let lo = 0
  let hi = cdf.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (cdf[mid]! < u) lo = mid + 1
    else hi = mid
  }
  return lo
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A ULID for a start time (ms) and 80 random bits, as the server mints them: ids sort by time. */
function ulid(ms: number, next: () => number): string {
  let time = ''
  let t = ms
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32]! + time
    t = Math.floor(t / 32)
  }
  let rest = ''
  for (let i = 0; i < 16; i++) rest += CROCKFORD[Math.floor(next() * 32)]!
  return time + rest
}

/** How many of `total` runs start on each of the 365 days ending with the day of `end`. */
function runsPerDay(total: number, firstDay: number): number[] {
  const weights = Array.from({ length: DAYS }, (_, d) => {
    const weekday = new Date((firstDay + d * DAY) * 1000).getUTCDay()
    return (weekday === 0 || weekday === 6 ? 0.25 : 1) * (0.6 + (0.4 * d) / DAYS)
  })
  const sum = weights.reduce((a, b) => a + b, 0)
  const counts = weights.map((w) => Math.floor((total * w) / sum))
  counts[DAYS - 1]! += total - counts.reduce((a, b) => a + b, 0)
  return counts
}

/** A standard normal deviate (Box-Muller). */
function normal(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())
}

/** `total` runs, in start order, the last of them started before `end` (epoch seconds). */
export function* scaleRuns(total: number, end: number): Generator<RunRecord> {
  const next = random(28)
  const all = agents()
  const cdf = zipfCdf(all.length)
  const hourCdf = new Float64Array(HOUR_WEIGHTS.length)
  HOUR_WEIGHTS.reduce((sum, w, h) => (hourCdf[h] = sum + w), 0)
  for (let h = 0; h < hourCdf.length; h++) hourCdf[h]! /= hourCdf[hourCdf.length - 1]!
  const firstDay = Math.floor(end / DAY) * DAY - (DAYS - 1) * DAY
  const perDay = runsPerDay(total, firstDay)
  let n = 0
  for (let d = 0; d < DAYS; d++) {
    const dayStart = firstDay + d * DAY
    const times = new Float64Array(perDay[d]!)
    for (let i = 0; i < times.length; i++) {
      let t: number
      do t = dayStart + search(hourCdf, next()) * 3600 + Math.floor(next() * 3_600_000_000) / 1_000_000
      while (t >= end)
      times[i] = t
    }
    times.sort()
    for (const startedAt of times) yield scaleRun(n++, startedAt, end, all[search(cdf, next())]!, next)
  }
}

function scaleRun(n: number, startedAt: number, end: number, agent: Agent, next: () => number): RunRecord {
  const slot = Math.floor(startedAt / 1800)
  const week = Math.floor(startedAt / (7 * DAY))
  const test = Math.floor(next() * agent.tests)
  const onMain = next() < 0.55
  // Eight feature branches a week, each pushed to every three hours or so; main gets a commit an hour.
  const feature = Math.floor(next() * 8)
  const branch = onMain ? 'main' : `feat/${FEATURES[hash(week, feature) % FEATURES.length]}-${week}-${feature}`
  const commit = sha(hash(branch, Math.floor(startedAt / (onMain ? 3600 : 3 * 3600))))
  const testName = `${agent.name} > case ${test}`
  const u = next()
  const active = startedAt > end - 900 ? u < 0.6 : u < 0.0005
  const status: RunRecord['status'] = active ? 'active' : u < agent.failRate ? 'failed' : u < agent.failRate + 0.012 ? 'cancelled' : 'completed'
  const duration = active ? 0 : Math.max(50, Math.round(Math.exp(Math.log(agent.medianMs) + 0.8 * normal(next))))
  const completedAt = active ? null : startedAt + duration / 1000
  const graded = !active && next() < 0.25
  const order = 1000 + Math.floor(next() * 99_000)
  const goal = `${GOALS[test % GOALS.length]} ${order}`
  const memories = next() < 1 / 12 ? Array.from({ length: 1 + Math.floor(next() * 3) }, () => `mem-${Math.floor(next() * 5000)}`) : []
  const runId = ulid(Math.floor(startedAt * 1000), next)
  return {
    org: 'local',
    namespace: 'default',
    run_id: runId,
    agent: agent.name,
    user_id: next() < 0.1 ? `user-${Math.floor(next() * 20_000)}` : '-',
    session_id: next() < 0.35 ? '-' : `sess-${hex8(hash(agent.name, test, slot))}`,
    goal,
    user_request: '',
    expected_outcome: '',
    environment: 'ci',
    model: agent.models[0]!,
    consumer: '',
    status,
    started_at: startedAt,
    completed_at: completedAt,
    duration_ms: duration,
    final_response: status === 'completed' ? `Done: ${goal.toLowerCase()}.` : '',
    confidence: status === 'completed' ? Math.round(next() * 100) / 100 : 0,
    grade: graded ? (next() < (status === 'completed' ? 0.85 : 0.2) ? 'pass' : 'fail') : null,
    grade_source: graded ? (next() < 0.6 ? 'ci' : next() < 0.75 ? 'judge' : 'maintainer') : null,
    grade_reason: graded ? '' : null,
    grade_ref: graded ? '' : null,
    graded_at: graded ? completedAt! + 60 + Math.floor(next() * 3600) : null,
    memories_used: memories,
    metadata: {
      test_file: `test/agents/${agent.name}.test.ts`,
      test_name: testName,
      git_commit: commit,
      git_branch: branch,
    },
    budget_usd: n % 4 === 0 ? 0.5 : 0,
    budget_seconds: n % 4 === 0 ? 120 : 0,
    usage: active || next() < 0.05 ? null : usageOf(agent, next),
  }
}

function usageOf(agent: Agent, next: () => number): NonNullable<RunRecord['usage']> {
  const turns = 1 + Math.floor(-Math.log(1 - next()) * 3.5)
  const models = Object.create(null) as NonNullable<RunRecord['usage']>['models']
  let unmeasured = 0
  for (let i = 0; i < turns; i++) {
    if (next() < 0.02) {
      unmeasured += 1
      continue
    }
    const model = agent.models[agent.models.length > 1 && next() < 0.3 ? 1 : 0]!
    const entry = (models[model] ??= { turns: 0, input: 0, output: 0 })
    entry.turns += 1
    entry.input += Math.round(900 + next() * 1800)
    entry.output += Math.round(40 + next() * 300)
  }
  return { turns, models, unmeasured }
}

/** A trace of `run` as session() records one: a turn per usage turn, each with its messages and a tool call. */
export function scaleTrace(run: RunRecord): Trace {
  const next = random(hash(run.run_id))
  const turns = run.usage?.turns ?? 1
  const history: Array<{ role: string; content: string }> = [
    { role: 'system', content: `You are ${run.agent}. Resolve the customer's request with the tools you have; never promise what a tool did not confirm.` },
    { role: 'user', content: `${run.goal}, please. The order was placed last week and arrived damaged.` },
  ]
  return {
    trace_id: run.run_id,
    name: run.agent,
    turns: Array.from({ length: turns }, (_, index) => {
      const tool = index < turns - 1
      const turn = {
        index,
        llm_call: {
          messages: [...history],
          response_text: tool ? '' : `Done: ${run.goal.toLowerCase()}.`,
          tool_calls: tool
            ? [
                {
                  call_id: `call_${index}`,
                  name: 'lookup_order',
                  arguments: { order_id: run.goal.split(' ').pop() ?? '', step: index },
                  timestamp: run.started_at + index,
                },
              ]
            : [],
          model: run.model,
          token_usage: { input_tokens: Math.round(900 + next() * 1800), output_tokens: Math.round(40 + next() * 300) },
          timestamp: run.started_at + index,
        },
        tool_results: tool ? [{ call_id: `call_${index}`, result: { status: 'delivered', amount_usd: 42.5, items: 2 }, error: null, duration_ms: 120 }] : [],
        duration_ms: Math.round(run.duration_ms / turns),
      }
      history.push({ role: 'assistant', content: tool ? `Looking up the order (step ${index}).` : turn.llm_call.response_text })
      return turn
    }),
    metadata: run.metadata,
    started_at: run.started_at,
    ended_at: run.completed_at,
    format_version: '1',
    parent_trace_id: null,
    handoff_context: null,
    status: run.status === 'active' ? 'completed' : (run.status as Trace['status'] & string),
    error: null,
    session_id: run.session_id,
    user_id: null,
  }
}
