import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repeat, session } from '../../src/entries/index.js'
import { saveTrace } from '../../src/entries/files.js'
import { loadPriceTable } from '../../src/storage/price-file.js'
import { TraceIndex } from '../../src/viewer/trace-index.js'
import type { RunsDelta } from '../../src/viewer/types.js'
import { tempDir } from '../helpers/temp-dir.js'
import { buildTrace } from '../helpers/trace-builder.js'
import { HOSTILE_FILE, T0, writeViewerDir } from './viewer-dir.js'

const prices = loadPriceTable()

function open(dir: string, watch = false): TraceIndex {
  const index = new TraceIndex({ dir, prices, watch, rescanMs: 100 })
  return index
}

describe('the trace index', () => {
  it('lists every run and golden with the facts of the Runs page, its cost from the price table and its golden state', () => {
    const index = open(writeViewerDir(tempDir()))
    const rows = Object.fromEntries(index.payload().runs.map((run) => [run.id, run]))
    expect(Object.keys(rows).sort()).toEqual([
      'billing-agent.trace.json',
      'crashed-agent.trace.json',
      'golden/refund-agent.trace.json',
      'golden/search-agent.trace.json',
      'golden/tests/refund.test.ts/happy_path.trace.json',
      HOSTILE_FILE,
      'refund-agent.trace.json',
      'replay-agent.trace.json',
      'search-agent.trace.json',
      'support-agent.trace.json',
      'tests/refund.test.ts/happy_path.trace.json',
    ])
    expect(rows['refund-agent.trace.json']).toEqual({
      id: 'refund-agent.trace.json',
      kind: 'run',
      name: 'refund-agent',
      trace_id: 'refund-25',
      status: 'completed',
      interruption_reason: null,
      error: null,
      started_at: T0 + 100,
      ended_at: T0 + 101.1,
      duration_ms: 1100,
      turns: 3,
      tool_calls: 2,
      errors: 0,
      tokens: { input: 3900, output: 90, total: 3990 },
      cost_usd: expect.closeTo((3900 * 2.5 + 90 * 10) / 1_000_000, 12),
      unpriced_turns: 0,
      replayed_calls: 0,
      injected_faults: 0,
      resumed_from: null,
      grade: null,
      goal: 'Refund order 42',
      test_file: null,
      test_name: null,
      parent_trace_id: null,
      session_id: null,
      user_id: null,
      golden: { state: 'differs', id: 'golden/refund-agent.trace.json', changes: 2 },
      failing: true,
    })
    expect(rows['search-agent.trace.json']!.golden).toEqual({ state: 'matches', id: 'golden/search-agent.trace.json', changes: 0 })
    expect(rows['tests/refund.test.ts/happy_path.trace.json']).toMatchObject({
      test_file: 'tests/refund.test.ts',
      test_name: 'refund > happy path',
      golden: { state: 'matches', id: 'golden/tests/refund.test.ts/happy_path.trace.json' },
    })
    expect(rows['crashed-agent.trace.json']).toMatchObject({
      status: 'failed',
      errors: 1,
      error: { name: 'Error', message: 'downstream exploded' },
      golden: { state: 'none', id: null },
      failing: true,
    })
    expect(rows['replay-agent.trace.json']).toMatchObject({
      replayed_calls: 1,
      injected_faults: 1,
      resumed_from: 'replay-0',
      cost_usd: expect.closeTo((20 * 0.15 + 10 * 0.6) / 1_000_000, 12),
    })
    expect(rows['golden/refund-agent.trace.json']).toMatchObject({ kind: 'golden', golden: null, failing: false })
  })

  it('finds the golden of a test-file-scoped run by test file, test name and name when it is not at the same place', () => {
    const dir = tempDir()
    const run = buildTrace('happy', [{ text: 'hi' }], { test_file: 'a.test.ts', test_name: 'works' })
    mkdirSync(join(dir, 'a.test.ts'), { recursive: true })
    writeFileSync(join(dir, 'a.test.ts', 'run-1.trace.json'), JSON.stringify(run, null, 2))
    saveTrace(buildTrace('happy', [{ text: 'hello' }], { test_file: 'a.test.ts', test_name: 'works' }), { traceDir: join(dir, 'golden', 'elsewhere') })
    const row = open(dir).get('a.test.ts/run-1.trace.json')
    expect(row?.golden).toEqual({ state: 'differs', id: 'golden/elsewhere/happy.trace.json', changes: 1 })
  })

  it("gives the runs of a run set their run set's golden, and says which of them differ from it", async () => {
    const dir = tempDir()
    // Run 2 escalates where the others refund; run 1 writes the run set's golden.
    await repeat(3, 'refund', { traceDir: dir, golden: true, concurrency: 1 }, (s, run) => {
      s.logLlmCall({ toolCalls: [{ name: run.index === 2 ? 'escalate' : 'issue_refund', arguments: { order_id: '42' } }] })
    })
    const rows = open(dir)
      .payload()
      .runs.filter((row) => row.kind === 'run')
      .sort((a, b) => a.name.localeCompare(b.name))

    expect(rows.map((row) => [row.name, row.golden])).toEqual([
      ['refund #1', { state: 'matches', id: 'golden/refund.trace.json', changes: 0 }],
      ['refund #2', { state: 'differs', id: 'golden/refund.trace.json', changes: 2 }],
      ['refund #3', { state: 'matches', id: 'golden/refund.trace.json', changes: 0 }],
    ])
  })

  it('names the files that are not readable traces, and leaves out links out of the directory and the ledger folder', () => {
    const dir = tempDir()
    const outside = tempDir()
    saveTrace(buildTrace('secret', [{ text: 'outside' }]), { traceDir: outside })
    writeFileSync(join(dir, 'broken.trace.json'), '{ "trace_id": ')
    symlinkSync(join(outside, 'secret.trace.json'), join(dir, 'linked.trace.json'))
    symlinkSync(outside, join(dir, 'linked-folder'))
    saveTrace(buildTrace('ledger-run', [{ text: 'x' }]), { traceDir: join(dir, 'ledger', 'acme', 'default') })
    saveTrace(buildTrace('inside', [{ text: 'in' }]), { traceDir: dir })
    symlinkSync(join(dir, 'inside.trace.json'), join(dir, 'alias.trace.json'))
    const payload = open(dir).payload()
    expect(payload.runs.map((run) => run.id).sort()).toEqual(['alias.trace.json', 'inside.trace.json'])
    expect(payload.skipped).toEqual([{ id: 'broken.trace.json', reason: expect.stringMatching(/^the file is not JSON .*\(rule: json\)$/) }])
  })

  it('sees a run appear while it is recorded (its journal, active), gain turns, and complete, and tells its listeners', async () => {
    const dir = tempDir()
    const index = open(dir, true)
    const deltas: RunsDelta[] = []
    index.subscribe((delta) => deltas.push(delta))
    const until = async (ready: () => boolean): Promise<void> => {
      const end = Date.now() + 8000
      while (!ready() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25))
      expect(ready()).toBe(true)
    }
    const active = () => index.payload().runs.find((run) => run.kind === 'run')
    await session('live-agent', { traceDir: dir }, async (s) => {
      s.logLlmCall({ model: 'gpt-4o', responseText: 'one' })
      await until(() => active()?.turns === 1)
      expect(active()).toMatchObject({
        status: 'active',
        id: expect.stringMatching(/^live-agent\.[0-9A-Z]{26}\.journal\.jsonl$/),
        golden: { state: 'none' },
        failing: false,
      })
      s.logLlmCall({ model: 'gpt-4o', responseText: 'two' })
      await until(() => active()?.turns === 2)
    })
    await until(() => active()?.id === 'live-agent.trace.json')
    expect(active()).toMatchObject({ status: 'completed', turns: 2 })
    expect(deltas.at(-1)?.remove).toEqual([expect.stringMatching(/\.journal\.jsonl$/)])
    expect(deltas.map((delta) => delta.version)).toEqual(deltas.map((_, i) => i + 1))
    index.close()
  })
})
