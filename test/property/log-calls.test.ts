/**
 * Property test (fast-check, seeded, bounded): hostile values in every log
 * call and option, with secrets planted among them. For each run: no log call
 * throws because of a value, the session's written file validates and loads,
 * and no planted secret is anywhere on disk (trace, journal). Set
 * REAGENT_FUZZ_SEED and REAGENT_FUZZ_RUNS to explore further.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { loadTrace, session } from '../../src/entries/index.js'
import { tempDir } from '../helpers/temp-dir.js'
import { leaksIn, secretForms, type SecretForm } from '../redact/corpus.js'

const SEED = Number(process.env.REAGENT_FUZZ_SEED ?? 20_261_201)
const RUNS = Number(process.env.REAGENT_FUZZ_RUNS ?? 120)

const forms: SecretForm[] = secretForms(7)

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}

function circular(): object {
  const value = Object.create(null) as Record<string, unknown>
  value.loop = value
  return value
}

/**
 * Values JSON cannot hold, and values that fight back when read. fast-check
 * cannot carry a revoked Proxy or a throwing getter itself, so it generates a
 * marker for each, turned into the real thing inside the property.
 */
class Hostile {
  constructor(
    readonly kind: string,
    readonly text: string,
  ) {}
}

const KINDS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  'undefined',
  'bigint',
  'symbol',
  'function',
  'invalid date',
  'map',
  'set',
  'typed array',
  'promise',
  'revoked proxy',
  'circular',
  'throwing getter',
  '__proto__',
]

function make(marker: Hostile): unknown {
  switch (marker.kind) {
    case 'NaN':
      return Number.NaN
    case 'Infinity':
      return Number.POSITIVE_INFINITY
    case '-Infinity':
      return Number.NEGATIVE_INFINITY
    case '-0':
      return -0
    case 'undefined':
      return undefined
    case 'bigint':
      return 10n
    case 'symbol':
      return Symbol(marker.text)
    case 'function':
      return () => marker.text
    case 'invalid date':
      return new Date(Number.NaN)
    case 'map':
      return new Map([[1, marker.text]])
    case 'set':
      return new Set([marker.text])
    case 'typed array':
      return new Uint8Array(3)
    case 'promise':
      return Promise.resolve(marker.text)
    case 'revoked proxy':
      return revoked()
    case 'circular':
      return circular()
    case 'throwing getter':
      return {
        get boom(): never {
          throw new Error(marker.text)
        },
      }
    default:
      return JSON.parse(`{"__proto__": ${JSON.stringify(marker.text)}}`) as object
  }
}

/** The generated value with every marker replaced by the hostile value it stands for. */
function materialize(value: unknown): unknown {
  if (value instanceof Hostile) return make(value)
  if (Array.isArray(value)) return value.map(materialize)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, materialize(item)]))
}

const hostile = fc.tuple(fc.constantFrom(...KINDS), fc.string()).map(([kind, text]) => new Hostile(kind, text))

/** A planted secret form (string or structure), remembered so the test can look for it afterwards. */
const planted = fc.constantFrom(...forms)
const value = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: hostile },
  { weight: 2, arbitrary: planted.map((form) => form.value) },
)
const withSecret = fc.tuple(value, planted).map(([noise, form]) => ({ value: { noise, secret: form.value }, form }))

const llmCall = fc.record(
  {
    toolCalls: fc.array(fc.record({ name: fc.string({ minLength: 1 }), arguments: fc.oneof(value, fc.string()), callId: fc.oneof(fc.string(), hostile) }), {
      maxLength: 3,
    }),
    responseText: value,
    messages: fc.oneof(fc.array(fc.oneof(value, fc.record({ role: value, content: value })), { maxLength: 4 }), hostile),
    model: value,
    tokenUsage: fc.oneof(fc.dictionary(fc.string(), value), hostile),
    timestamp: value,
    latencyMs: value,
    stopReason: value,
    provider: value,
    error: value,
  },
  { requiredKeys: [] },
)

const toolResult = fc.record({ result: value, error: value, durationMs: value, callId: fc.oneof(fc.string(), hostile) }, { requiredKeys: [] })

describe('hostile values in every log call and option', () => {
  it('never make a log call throw, and the written file loads with no planted secret in any file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(llmCall, fc.array(toolResult, { maxLength: 2 })), { minLength: 1, maxLength: 4 }),
        withSecret,
        withSecret,
        async (turns, metadata, handoff) => {
          const traceDir = tempDir()
          const s = await session(
            'fuzzed',
            {
              traceDir,
              metadata: materialize(metadata.value) as Record<string, unknown>,
              handoffContext: materialize(handoff.value) as Record<string, unknown>,
            },
            async (s) => {
              for (const [call, results] of turns) {
                const ids = s.logLlmCall(materialize(call) as never)
                for (const [i, result] of results.entries()) s.logToolResult('tool', { ...(materialize(result) as object), callId: ids[i] ?? `x${i}` })
              }
            },
          )
          expect(s.status).toBe('completed')
          expect(loadTrace(join(traceDir, 'fuzzed.trace.json')).turns).toHaveLength(turns.length)
          const written = readdirSync(traceDir)
            .map((name) => readFileSync(join(traceDir, name), 'utf8'))
            .join('\n')
          expect(leaksIn(written, [metadata.form, handoff.form])).toEqual([])
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
  }, 60_000)

  it('never let a planted secret in a logged value reach the journal of a run that is still open', async () => {
    await fc.assert(
      fc.asyncProperty(withSecret, withSecret, async (args, result) => {
        const traceDir = tempDir()
        await session('open-run', { traceDir }, async (s) => {
          const [id] = s.logLlmCall({ toolCalls: [{ name: 'tool', arguments: materialize(args.value) }], responseText: 'x' })
          s.logToolResult('tool', { callId: id!, result: materialize(result.value) })
          await new Promise((resolve) => setTimeout(resolve, 45))
          const journal = readdirSync(traceDir).find((name) => name.endsWith('.journal.jsonl'))!
          expect(leaksIn(readFileSync(join(traceDir, journal), 'utf8'), [args.form, result.form])).toEqual([])
        })
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 3) },
    )
  }, 60_000)
})
