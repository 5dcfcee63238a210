/**
 * What testing a non-deterministic agent costs: recording under limits
 * (each call counted and priced), repeat() against the same sessions in a
 * loop, comparing a run with a golden of several variants, and injected
 * model faults through the real OpenAI SDK (a faulted call against a
 * scripted one; scripted calls in a run whose model fault never fires
 * against the same run without faults).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { repeat, session, Session, type Fault, type Trace } from 'reagent-flow'
import { scriptedFetch } from 'reagent-flow/fake'
import { saveTrace } from 'reagent-flow/files'
import { fileGoldenStore, matchGolden } from 'reagent-flow/golden'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { resolveDiffOptions } from '../../src/diff/options.js'
import { reconcile, renderGolden } from '../../src/golden/index.js'
import type { BenchSuite } from '../run.js'
import { compare, compareAsync } from '../lib/measure.js'
import { bigTrace, TURNS } from '../lib/workload.js'

/** `turns` turns as an adapter records them: each LLM call with its model and token usage, then its tool's result. */
function recordPriced(s: Session, turns = TURNS): Session {
  for (let i = 0; i < turns; i++) {
    s.logLlmCall({ toolCalls: [{ name: 'search', arguments: { q: `query ${i}` } }], model: 'gpt-4o', tokenUsage: { input_tokens: 120, output_tokens: 20 } })
    s.logToolResult('search', { result: { hits: i } })
  }
  return s
}

const LIMITS = { turns: 1_000_000, tokens: 1_000_000_000, usd: 1_000_000, seconds: 3600 }
const RUNS = 100

/** A three-turn agent, as a repeated run. */
function smallAgent(s: Session): void {
  recordPriced(s, 3)
}

/** `trace` doing another thing in its last turn: a variant. */
function variantOf(trace: Trace, tool: string): Trace {
  const copy = structuredClone(trace)
  copy.turns.at(-1)!.llm_call.tool_calls[0]!.name = tool
  return copy
}

const CALLS = 100
const REQUEST = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'What is the weather in Paris?' }] }

/** A session of `CALLS` chat completions through an instrumented client answered by a script (a failed call is caught, as an agent would). */
function modelCalls(faults: Fault[] | undefined): () => Promise<unknown> {
  return () => {
    const fetch = scriptedFetch(Array.from({ length: CALLS }, () => ({ text: 'Sunny.' })))
    const client = instrumentOpenAI(new OpenAI({ apiKey: 'sk-bench', maxRetries: 0, fetch }))
    return session('bench faults', { save: false, ...(faults === undefined ? {} : { faults }) }, async () => {
      for (let i = 0; i < CALLS; i++) await client.chat.completions.create(REQUEST).catch(() => undefined)
    })
  }
}

export const suite: BenchSuite = {
  name: 'nondeterminism',
  async run() {
    const suiteName = 'Faults, limits, repeated runs, golden variants'
    const limited = compare(
      () => recordPriced(new Session('bench', { save: false, limits: LIMITS })),
      () => recordPriced(new Session('bench', { save: false })),
    )
    const repeated = await compareAsync(
      () => repeat(RUNS, 'bench', { save: false }, smallAgent),
      async () => {
        for (let i = 1; i <= RUNS; i++) await session(`bench #${i}`, { save: false }, smallAgent)
      },
    )

    const faulted = await compareAsync(modelCalls([{ llm: true, status: 429 }]), modelCalls(undefined))
    const passing = await compareAsync(modelCalls([{ llm: true, status: 429, model: 'another-model' }]), modelCalls(undefined))

    // A 1,000-turn run against its golden: of one variant, and of three, where it matches the one compared last.
    const run = bigTrace(1000)
    const dir = mkdtempSync(join(tmpdir(), 'reagent-bench-variants-'))
    try {
      const one = join(dir, 'one')
      const three = join(dir, 'three')
      saveTrace(run, { traceDir: one, golden: true })
      const path = fileGoldenStore(three).resolvePath(run)
      let text = renderGolden(variantOf(run, 'lookup')).text
      for (const trace of [variantOf(run, 'fetch'), run]) text = reconcile(renderGolden(trace), { path, text }, 'all', resolveDiffOptions({}), 'add').text
      saveTrace(run, { traceDir: three, golden: true })
      writeFileSync(path, text)
      const variants = compare(
        () => matchGolden(run, { traceDir: three, update: 'none' }),
        () => matchGolden(run, { traceDir: one, update: 'none' }),
        { runs: 9 },
      )
      if (!matchGolden(run, { traceDir: three, update: 'none' }).pass) throw new Error('bench variants: the run should match its third variant')
      return [
        {
          suite: suiteName,
          name: `${TURNS.toLocaleString('en')} turns under limits (turns, tokens, usd, seconds)`,
          value: limited.ours.medianMs,
          unit: 'ms',
          baseline: limited.baseline.medianMs,
          baselineName: 'the same turns without limits',
          target: { max: 1.5, of: 'ratio' },
        },
        {
          suite: suiteName,
          name: `repeat(${RUNS}) of a 3-turn agent`,
          value: repeated.ours.medianMs,
          unit: 'ms',
          baseline: repeated.baseline.medianMs,
          baselineName: `${RUNS} sessions awaited in a loop`,
          target: { max: 1.3, of: 'ratio' },
        },
        {
          suite: suiteName,
          name: `${CALLS} OpenAI calls, each failed by an injected 429`,
          value: faulted.ours.medianMs,
          unit: 'ms',
          baseline: faulted.baseline.medianMs,
          baselineName: `${CALLS} calls answered by scriptedFetch`,
          target: { max: 2, of: 'ratio' },
        },
        {
          suite: suiteName,
          name: `${CALLS} OpenAI calls under a model fault that never fires`,
          value: passing.ours.medianMs,
          unit: 'ms',
          baseline: passing.baseline.medianMs,
          baselineName: 'the same calls without faults',
          target: { max: 1.2, of: 'ratio' },
        },
        {
          suite: suiteName,
          name: 'matchGolden, 1,000 turns, 3 variants (matches the 3rd)',
          value: variants.ours.medianMs,
          unit: 'ms',
          baseline: variants.baseline.medianMs,
          baselineName: 'one variant',
        },
      ]
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
