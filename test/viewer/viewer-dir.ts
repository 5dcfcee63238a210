/**
 * A trace directory with one of everything the viewer shows: a run that
 * differs from its golden (an argument changed), one that matches, a failed
 * run with a tool error, a chain of agents, a test-file-scoped run with its
 * golden, replayed calls and an injected fault, and a run full of hostile
 * strings (`<script>`, `javascript:` links, `</script>`).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { saveTrace, tracePath } from '../../src/entries/files.js'
import { renderGolden } from '../../src/golden/index.js'
import type { Trace } from '../../src/trace/types.js'
import { buildTrace } from '../helpers/trace-builder.js'

export const T0 = 1_800_000_000

/** The strings of the hostile run: each must show as text, never run. */
export const HOSTILE = {
  name: 'hostile <script>window.__pwned = 1</script> agent',
  text: '</script><script>window.__pwned = 2</script><img src=x onerror="window.__pwned = 3">',
  link: 'javascript:window.__pwned = 4',
  key: '<b onmouseover="window.__pwned = 5">key</b>',
}

/** The hostile run's file (its name sanitised). */
export const HOSTILE_FILE = 'hostile__script_window.__pwned___1__script__agent.trace.json'

function writeGolden(dir: string, trace: Trace, relative?: string): void {
  const path = relative === undefined ? tracePath(trace.name, { traceDir: dir, golden: true }) : join(dir, 'golden', relative)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, renderGolden(trace).text)
}

function refund(amount: number): Trace {
  return buildTrace(
    'refund-agent',
    [
      {
        calls: [{ name: 'lookup_order', args: { order_id: '42' }, result: { order_id: '42', amount: 19.99 } }],
        model: 'gpt-4o',
        tokens: { input_tokens: 1200, output_tokens: 40 },
        ms: 420,
      },
      {
        calls: [{ name: 'issue_refund', args: { order_id: '42', amount }, result: { ok: true } }],
        model: 'gpt-4o',
        tokens: { input_tokens: 1300, output_tokens: 30 },
        ms: 380,
      },
      { text: `Refunded $${amount} for order 42.`, model: 'gpt-4o', tokens: { input_tokens: 1400, output_tokens: 20 }, ms: 300 },
    ],
    { trace_id: `refund-${amount}`, started_at: T0 + 100, ended_at: T0 + 101.1, metadata: { goal: 'Refund order 42' } },
  )
}

/** Writes the directory and returns it. */
export function writeViewerDir(dir: string): string {
  saveTrace(refund(25), { traceDir: dir })
  writeGolden(dir, refund(19.99))

  const search = buildTrace('search-agent', [{ calls: [{ name: 'search', args: { q: 'rome' }, result: ['Colosseum'] }] }, { text: 'The Colosseum.' }], {
    trace_id: 'search-1',
    started_at: T0 + 50,
    ended_at: T0 + 50.5,
  })
  saveTrace(search, { traceDir: dir })
  writeGolden(dir, search)

  saveTrace(
    buildTrace('crashed-agent', [{ calls: [{ name: 'charge_card', args: { card: '4242' }, error: 'TimeoutError: the bank did not answer' }] }], {
      trace_id: 'crashed-1',
      started_at: T0 + 200,
      ended_at: T0 + 200.2,
      status: 'failed',
      error: { name: 'Error', message: 'downstream exploded' },
    }),
    { traceDir: dir },
  )

  saveTrace(buildTrace('support-agent', [{ text: 'Handing over to billing.' }], { trace_id: 'support-1', started_at: T0 + 10, ended_at: T0 + 12 }), {
    traceDir: dir,
  })
  saveTrace(
    buildTrace('billing-agent', [{ calls: [{ name: 'refund', args: { id: 7 }, result: 'ok' }] }], {
      trace_id: 'billing-1',
      parent_trace_id: 'support-1',
      handoff_context: { ticket: 'T-7' },
      started_at: T0 + 11,
      ended_at: T0 + 11.5,
    }),
    { traceDir: dir },
  )

  const scoped = buildTrace('happy path', [{ calls: [{ name: 'lookup_order', args: { order_id: '7' }, result: { ok: true } }] }], {
    trace_id: 'scoped-1',
    test_file: 'tests/refund.test.ts',
    test_name: 'refund > happy path',
    started_at: T0 + 300,
    ended_at: T0 + 300.3,
  })
  const scopedPath = join(dir, 'tests', 'refund.test.ts', 'happy_path.trace.json')
  mkdirSync(dirname(scopedPath), { recursive: true })
  writeFileSync(scopedPath, `${JSON.stringify(scoped, null, 2)}\n`)
  writeGolden(dir, scoped, 'tests/refund.test.ts/happy_path.trace.json')

  const replayed = buildTrace(
    'replay-agent',
    [
      { text: 'one', model: 'gpt-4o-mini', tokens: { input_tokens: 10, output_tokens: 5 } },
      { text: 'two', model: 'gpt-4o-mini', tokens: { input_tokens: 10, output_tokens: 5 } },
    ],
    { trace_id: 'replay-1', resumed_from: 'replay-0', started_at: T0 + 400, ended_at: T0 + 400.1 },
  )
  replayed.turns[0]!.llm_call.replayed = true
  replayed.turns[1]!.injected = true
  saveTrace(replayed, { traceDir: dir })

  const hostile = buildTrace(
    HOSTILE.name,
    [{ calls: [{ name: HOSTILE.key, args: { [HOSTILE.key]: HOSTILE.link, html: HOSTILE.text }, result: HOSTILE.text }], text: HOSTILE.text }],
    { trace_id: 'hostile-1', metadata: { goal: HOSTILE.text, link: HOSTILE.link }, started_at: T0 + 500, ended_at: T0 + 500.1 },
  )
  hostile.turns[0]!.llm_call.messages = [
    { role: 'user', content: HOSTILE.text },
    { role: '<img src=x onerror=alert(1)>', content: HOSTILE.link },
  ]
  saveTrace(hostile, { traceDir: dir })
  return dir
}
