import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Session, type Trace } from 'reagent-flow'
import { redactForDisk, saveTrace } from 'reagent-flow/files'
import type { BenchSuite } from '../run.js'
import type { Row } from '../lib/report.js'
import { compare, measure } from '../lib/measure.js'
import { bigTrace, TURNS } from '../lib/workload.js'

/** Prose of the kind agents resend every turn: words the gate reacts to (token, key, auth), no secret. */
const PROSE =
  'You are a support agent. Use the lookup tool with the order key; auth is handled for you. Keep answers short: ' +
  'the token budget is small, so summarise the session history instead of repeating it. Never reveal internal notes.'

/** A 10k-turn trace whose turns carry messages of prose and a JSON tool output as text: redaction reads every character. */
function textHeavyTrace(): Trace {
  const s = new Session('bench-text', { save: false })
  for (let i = 0; i < TURNS; i++) {
    s.logLlmCall({
      messages: [
        { role: 'system', content: PROSE },
        { role: 'tool', content: JSON.stringify({ order: i, status: 'shipped', note: `token usage ok, key ${i}` }) },
      ],
      toolCalls: [{ name: 'lookup', arguments: { order_key: `k-${i}` } }],
      model: 'gpt-4o',
    })
    s.logToolResult('lookup', { result: { ok: true } })
  }
  s.trace.ended_at = s.trace.started_at + 1.5
  return s.trace
}

const MB10 = 10_000_000
const fill = (pattern: string): string => pattern.repeat(Math.ceil(MB10 / pattern.length)).slice(0, MB10)

/** The strings that once took quadratic time, and others like them, at 10 MB each. */
const ADVERSARIAL: ReadonlyArray<[string, () => string]> = [
  ["'Bearer' + spaces", () => `Bearer${' '.repeat(MB10)}`],
  ["'auth' repeated", () => fill('auth')],
  ["'sk-' repeated", () => fill('sk-')],
  ["'eyJ-' repeated", () => fill('eyJ-')],
  ["'api_key=' repeated", () => fill('api_key=')],
  ['\'"password":\' repeated', () => fill('"password":')],
  ["'https://a:b' repeated", () => fill('https://a:b')],
  ["'-----BEGIN ' repeated", () => fill('-----BEGIN ')],
  ["'Basic dXNlcjpwYXNz ' repeated", () => fill('Basic dXNlcjpwYXNz ')],
  ["'<password>' repeated", () => fill('<password>x</')],
  ['one 10 MB JSON text', () => JSON.stringify({ rows: Array.from({ length: 200_000 }, (_, i) => ({ id: i, token: `t${i}` })) }).slice(0, MB10)],
]

export const suite: BenchSuite = {
  name: 'redaction',
  run() {
    const dir = mkdtempSync(join(tmpdir(), 'reagent-bench-'))
    try {
      const rows: Row[] = []
      const plain = bigTrace()
      const save = compare(
        () => saveTrace(plain, { traceDir: dir }),
        () => saveTrace(plain, { traceDir: dir, redact: false }),
      )
      const suiteName = `Redaction on saveTrace (${TURNS.toLocaleString('en')} turns, no secret) and on 10 MB hostile strings`
      rows.push({
        suite: suiteName,
        name: 'saveTrace, default redaction',
        value: save.ours.medianMs,
        unit: 'ms',
        baseline: save.baseline.medianMs,
        baselineName: 'saveTrace, redact: false',
        target: { max: 1.3, of: 'ratio' },
      })
      const text = textHeavyTrace()
      const heavy = compare(
        () => saveTrace(text, { traceDir: dir }),
        () => saveTrace(text, { traceDir: dir, redact: false }),
        { runs: 9 },
      )
      rows.push({
        suite: suiteName,
        name: 'saveTrace of prose-heavy turns, default redaction',
        value: heavy.ours.medianMs,
        unit: 'ms',
        baseline: heavy.baseline.medianMs,
        baselineName: 'redact: false',
      })
      for (const [name, make] of ADVERSARIAL) {
        const input = make()
        const timing = measure(() => redactForDisk(input), { runs: 3, warmup: 1 })
        rows.push({ suite: suiteName, name: `redact ${name}`, value: timing.medianMs, unit: 'ms', target: { max: 1000, of: 'value' } })
      }
      return rows
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
