import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveDiffOptions } from '../../src/diff/options.js'
import { TraceFormatError } from '../../src/errors/index.js'
import { readVariants, reconcile, renderGolden, type GoldenFile } from '../../src/golden/index.js'
import { assertMatchesBaseline, loadTrace, type Trace } from '../../src/entries/index.js'
import { matchGolden, normalizeTrace } from '../../src/entries/golden.js'
import { renderTrace } from '../../src/golden/trace-file.js'
import { scriptTrace, type ScriptedTurn } from '../helpers/script-trace.js'
import { tempDir } from '../helpers/temp-dir.js'

const options = resolveDiffOptions({})
const LOOKUP: ScriptedTurn = ['lookup_order', { order_id: '42' }, { amount: 19.99 }]
/** Three right ways to answer: refund at once, check the policy first, or hand it to billing. */
const refund = scriptTrace([LOOKUP, ['issue_refund', { order_id: '42' }, { ok: true }], 'Refunded.'], 'refund')
const policyFirst = scriptTrace(
  [LOOKUP, ['check_policy', { order_id: '42' }, { refundable: true }], ['issue_refund', { order_id: '42' }, { ok: true }], 'Refunded.'],
  'refund',
)
const billing = scriptTrace([LOOKUP, ['hand_to_billing', { order_id: '42' }, { ticket: 7 }], 'Billing will refund you.'], 'refund')
/** Wrong: refunds a different order. */
const wrongOrder = scriptTrace([LOOKUP, ['issue_refund', { order_id: '43' }, { ok: true }], 'Refunded.'], 'refund')

const file = (text: string): GoldenFile => ({ path: 'golden/refund.trace.json', text })
/** The golden holding `first`, with `then` added as variants, one approval after another. */
function goldenOf(first: Trace, ...then: Trace[]): string {
  let text = renderGolden(first).text
  for (const trace of then) text = reconcile(renderGolden(trace), file(text), 'all', options, 'add').text
  return text
}

describe('a golden with several accepted variants', () => {
  it('keeps a one-variant golden byte for byte as it always was', () => {
    const text = goldenOf(refund)
    expect(text).toBe(renderTrace(refund, { golden: true, redact: false }))
    expect(text).not.toContain('"variants"')
    expect(reconcile(renderGolden(refund), file(text), 'all', options, 'add')).toMatchObject({
      written: 'unchanged',
      text,
      variants: { before: 1, after: 1 },
      variant: 1,
    })
  })

  it('holds the first variant as the file itself and the others, whole, under "variants", in one order whatever order they came in', () => {
    const text = goldenOf(refund, policyFirst, billing)
    expect(goldenOf(billing, refund, policyFirst)).toBe(text)
    expect(goldenOf(policyFirst, billing, refund, billing)).toBe(text)

    const parsed = JSON.parse(text) as Trace & { variants: Trace[] }
    const own = (trace: Trace): string => renderGolden(trace).text
    const texts = [refund, policyFirst, billing].map(own).sort()
    expect([own(normalizeTrace(parsed)), ...parsed.variants.map((v) => own(normalizeTrace(v)))]).toEqual(texts)
    // A reader that knows nothing of variants reads the first one, a whole trace.
    expect(text.startsWith(texts[0]!.slice(0, texts[0]!.indexOf('"turns"')))).toBe(true)
    expect(readVariants(file(text)).map((variant) => variant.text)).toEqual(texts)
    expect(text).toMatch(/\n {2}"variants": \[\n {4}\{\n {6}"ended_at": 0\.0,\n/)
  })

  it('passes a run that matches any variant, and says which', () => {
    const dir = tempDir()
    const path = join(dir, 'golden', 'refund.trace.json')
    matchGolden(refund, { traceDir: dir, update: 'new' })
    writeFileSync(path, goldenOf(refund, billing))
    const before = readFileSync(path, 'utf8')
    const billingAt = readVariants(file(before)).findIndex((variant) => variant.text === renderGolden(billing).text) + 1

    const result = matchGolden(billing, { traceDir: dir, update: 'none' })
    expect(result).toMatchObject({ pass: true, outcome: 'matched', written: null, variant: { index: billingAt, of: 2 } })
    expect(result.message).toBe(`Trace "refund" matches variant ${billingAt} of the 2 accepted variants of its golden baseline (${path}).`)
    expect(matchGolden(refund, { traceDir: dir, update: 'none' }).variant).toEqual({ index: 3 - billingAt, of: 2 })
    expect(readFileSync(path, 'utf8')).toBe(before)
    expect(() => assertMatchesBaseline(billing, { traceDir: dir })).not.toThrow()
  })

  it('shows the diff against the closest variant when the run matches none', () => {
    const dir = tempDir()
    const path = join(dir, 'golden', 'refund.trace.json')
    matchGolden(billing, { traceDir: dir })
    writeFileSync(path, goldenOf(billing, policyFirst, refund))
    const closest = readVariants(file(readFileSync(path, 'utf8'))).findIndex((variant) => variant.text === renderGolden(refund).text) + 1

    const result = matchGolden(wrongOrder, { traceDir: dir, update: 'none', runPath: join(dir, 'refund.trace.json') })
    expect(result).toMatchObject({ pass: false, outcome: 'failed', variant: { index: closest, of: 3 } })
    expect(result.expected).toEqual(renderGolden(refund).trace)
    expect(result.message).toBe(
      [
        `Trace "refund" matches none of the 3 accepted variants of its golden baseline (${path}); the closest is variant ${closest}:`,
        '1 difference (strict) · - expected: 3 turns · + actual: 3 turns',
        '',
        'Turn 1 (expected) ↔ Turn 1 (actual)',
        '  ~ issue_refund',
        '      order_id: "42" → "43"',
        '',
        `If the new behaviour is right, accept it (or run the tests with vitest -u), then review and commit ${path}:`,
        `  npx reagent-flow approve --dir ${dir} ${join(dir, 'refund.trace.json')}`,
        "If it is right as well as the golden's (the agent may do either), add it as another accepted variant:",
        `  npx reagent-flow approve --dir ${dir} --add ${join(dir, 'refund.trace.json')}`,
      ].join('\n'),
    )
    expect(() => assertMatchesBaseline(wrongOrder, { traceDir: dir })).toThrow(
      `matches none of the 3 accepted variants of its golden baseline (${path}); the closest is variant ${closest}:`,
    )
  })

  it('in update mode all, refreshes the variant the run matches and keeps the others; a run matching none becomes the one variant', () => {
    const two = goldenOf(refund, billing)
    // The same behaviour with other token counts: its variant is rewritten, the other kept.
    const recounted = renderGolden({
      ...billing,
      turns: billing.turns.map((turn) => ({ ...turn, llm_call: { ...turn.llm_call, token_usage: { input_tokens: 5, output_tokens: 1 } } })),
    })
    const refreshed = reconcile(recounted, file(two), 'all', options)
    expect(refreshed).toMatchObject({ written: 'updated', variants: { before: 2, after: 2 } })
    expect(
      readVariants(file(refreshed.text))
        .map((variant) => variant.text)
        .sort(),
    ).toEqual([renderGolden(refund).text, recounted.text].sort())

    const replaced = reconcile(renderGolden(wrongOrder), file(two), 'all', options)
    expect(replaced).toMatchObject({ written: 'updated', text: renderGolden(wrongOrder).text, variants: { before: 2, after: 1 }, variant: 1 })
    expect(reconcile(renderGolden(refund), file(two), 'all', options, 'replace')).toMatchObject({
      written: 'updated',
      text: renderGolden(refund).text,
      variants: { before: 2, after: 1 },
    })
    expect(reconcile(renderGolden(refund), file(two), 'all', options)).toMatchObject({ written: 'unchanged', text: two })
  })

  it('reads back as it wrote: rewriting the same variants changes no byte, messages shared between calls written in full', async () => {
    const dir = tempDir()
    const long = (answer: string): Trace => {
      const trace = scriptTrace([LOOKUP, answer], 'chat')
      const messages = [{ role: 'user', content: 'Refund order 42' }]
      trace.turns[0]!.llm_call.messages = messages
      trace.turns[1]!.llm_call.messages = [...messages, { role: 'assistant', content: 'looking' }]
      return trace
    }
    const text = goldenOf(long('Refunded.'), long('Refund issued.'))
    expect(text).not.toContain('"messages_base"')
    expect((JSON.parse(text) as { variants: Trace[] }).variants[0]!.turns[1]!.llm_call.messages).toEqual([
      { role: 'user', content: 'Refund order 42' },
      { role: 'assistant', content: 'looking' },
    ])
    const path = join(dir, 'golden', 'chat.trace.json')
    matchGolden(long('Refunded.'), { traceDir: dir })
    writeFileSync(path, text)
    expect(reconcile(renderGolden(long('Refunded.')), file(text), 'all', options, 'add').text).toBe(text)
    expect(loadTrace(path).turns[1]!.llm_call.messages).toHaveLength(2)
  })

  it('rejects a variant that is not a trace, naming the file and where', () => {
    const text = goldenOf(refund, billing)
    const broken = JSON.parse(text) as { variants: Array<{ turns: Array<Record<string, unknown>> }> }
    delete broken.variants[0]!.turns[1]!['llm_call']
    expect(() => readVariants(file(JSON.stringify(broken, null, 2)))).toThrow(
      new TraceFormatError('golden/refund.trace.json', 'variants[0].turns[1]', 'required', 'missing required key "llm_call"'),
    )
    expect(() => reconcile(renderGolden(policyFirst), file(JSON.stringify(broken)), 'all', options, 'add')).toThrow(TraceFormatError)
    // Refreshing or replacing it, there is nothing to keep: the run is written.
    expect(reconcile(renderGolden(policyFirst), file(JSON.stringify(broken)), 'all', options).text).toBe(renderGolden(policyFirst).text)
  })
})
