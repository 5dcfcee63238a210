import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildTrace } from '../helpers/trace-builder.js'
import { runCli, runJson, sampleRuns, T0, traceDirWith } from './run-cli.js'

/** refund-agent started billing-agent and notify-agent; billing-agent started ledger-agent. */
function chainRuns() {
  const [refund, billing, search] = sampleRuns()
  const notify = buildTrace('notify-agent', [{ text: 'Mailed.' }], {
    parent_trace_id: 'trace-refund-agent',
    handoff_context: { email: 'a@example.com' },
    started_at: T0 + 0.9,
    ended_at: T0 + 1,
  })
  const ledger = buildTrace('ledger-agent', [{ text: 'Booked.' }], {
    parent_trace_id: 'trace-billing-agent',
    handoff_context: {},
    started_at: T0 + 0.6,
    ended_at: T0 + 0.7,
  })
  return [refund!, billing!, search!, notify, ledger]
}

const TREE = [
  'refund-agent  trace-refund-agent  completed · 3 turns · 2 tool calls · 1.5s',
  '├─ billing-agent  trace-billing-agent  completed · 2 turns · 1 tool call · 250ms · handoff: order_id, reason',
  '│  └─ ledger-agent  trace-ledger-agent  completed · 1 turn · 0 tool calls · 100ms · handoff: (empty)',
  '└─ notify-agent  trace-notify-agent  completed · 1 turn · 0 tool calls · 100ms · handoff: email',
]

describe('reagent-flow tree', () => {
  it('draws the chain from the run down, children in start order, with the keys each was handed', () => {
    const { code, stdout, stderr } = runCli(['tree', 'refund-agent'], traceDirWith(chainRuns()))
    expect([code, stderr]).toEqual([0, ''])
    expect(stdout).toBe(`${TREE[0]}  ◀\n${TREE.slice(1).join('\n')}\n`)
  })

  it('starts from the oldest ancestor of a child run and marks the run asked for', () => {
    const { code, stdout } = runCli(['tree', 'trace-ledger-agent'], traceDirWith(chainRuns()))
    expect(code).toBe(0)
    expect(stdout).toBe(`${[TREE[0], TREE[1], `${TREE[2]}  ◀`, TREE[3]].join('\n')}\n`)
  })

  it('links Python-written parents and children, and says when the top parent is not in the directory', () => {
    const cwd = traceDirWith([buildTrace('orphan', [{ text: 'hi' }], { parent_trace_id: 'trace-gone', started_at: T0, ended_at: T0 + 1 })], { python: true })
    expect(runCli(['tree', 'researcher'], cwd).stdout).toMatch(
      /^planner {2}d2ff446d-08a1-4e96-85cf-fcd13b3cd18b {2}completed · 1 turn · 1 tool call · 18µs\n└─ researcher {2}151c43c4-4136-448e-a599-06454f7cb61c .* · handoff: topic, depth, sources {2}◀\n$/,
    )
    expect(runCli(['tree', 'orphan'], cwd).stdout).toBe(
      '(started by trace-gone, not in .reagent)\norphan  trace-orphan  completed · 1 turn · 0 tool calls · 1.0s  ◀\n',
    )
  })

  it('skips a damaged or foreign JSON file in the directory, naming it on stderr', () => {
    const cwd = traceDirWith(chainRuns())
    writeFileSync(join(cwd, '.reagent', 'broken.trace.json'), '{"trace_id": ')
    writeFileSync(join(cwd, '.reagent', 'package.trace.json'), '{"name": "x"}')
    const { code, stdout, stderr } = runCli(['tree', 'billing-agent'], cwd)
    expect(code).toBe(0)
    expect(stdout).toBe(`${[TREE[0], `${TREE[1]}  ◀`, TREE[2], TREE[3]].join('\n')}\n`)
    expect(stderr).toBe(
      `reagent-flow tree: skipped ${join('.reagent', 'broken.trace.json')}: not a readable trace: the file is not JSON (Unexpected end of JSON input) (rule: json)\n` +
        `reagent-flow tree: skipped ${join('.reagent', 'package.trace.json')}: not a readable trace: at the top level: missing required key "trace_id" (rule: required)\n`,
    )
    expect(runJson(['tree', 'billing-agent'], cwd).json.unreadable).toEqual([
      { file: join('.reagent', 'broken.trace.json'), reason: 'the file is not JSON (Unexpected end of JSON input) (rule: json)' },
      { file: join('.reagent', 'package.trace.json'), reason: 'at the top level: missing required key "trace_id" (rule: required)' },
    ])
  })

  it('prints the tree as nested { name, trace_id, file, status, turns, tool_calls, duration_ms, handoff_keys, children } with --json', () => {
    const { code, json } = runJson(['tree', 'notify-agent'], traceDirWith(chainRuns()))
    expect(code).toBe(0)
    const node = (name: string, extra: object, children: object[] = []): object => ({
      name,
      trace_id: `trace-${name}`,
      file: join('.reagent', `${name}.trace.json`),
      status: 'completed',
      ...extra,
      children,
    })
    expect(json).toEqual({
      root: node('refund-agent', { turns: 3, tool_calls: 2, duration_ms: 1500, handoff_keys: null }, [
        node('billing-agent', { turns: 2, tool_calls: 1, duration_ms: 250, handoff_keys: ['order_id', 'reason'] }, [
          node('ledger-agent', { turns: 1, tool_calls: 0, duration_ms: 100, handoff_keys: [] }),
        ]),
        node('notify-agent', { turns: 1, tool_calls: 0, duration_ms: 100, handoff_keys: ['email'] }),
      ]),
      trace_id: 'trace-notify-agent',
      missing_parent: null,
      unreadable: [],
    })
  })
})
